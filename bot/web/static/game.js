// A game's page: live news of the game, plays from a token link, and stepping through a
// finished game. Without this script the page still works: its links and forms load pages.
"use strict";

(function () {
  const main = document.getElementById("game");
  const live = document.getElementById("live");
  if (!main || !live) {
    return;
  }
  const partUrl = main.dataset.part;

  function shown() {
    const marker = live.querySelector(".state");
    return marker ? marker.dataset : {};
  }

  // Fetch the live part anew (query: "?ply=K" to step) and put it in place, keeping the
  // keyboard focus on the same control where it still exists. Answers can arrive out of
  // order (two steps pressed quickly): only the newest request's answer is shown.
  let latest = 0;
  async function refresh(query) {
    const ticket = ++latest;
    const focused = document.activeElement;
    const key = focused && focused.dataset ? focused.dataset.key : undefined;
    const response = await fetch(partUrl + (query || ""), { cache: "no-store" });
    if (!response.ok) {
      return false;
    }
    const text = await response.text();
    if (ticket !== latest) {
      return false;
    }
    live.innerHTML = text;
    if (key) {
      const again = live.querySelector('[data-key="' + key + '"]');
      if (again) {
        again.focus();
      }
    }
    return true;
  }

  function say(text, refused) {
    const place = document.getElementById("said");
    if (!place) {
      return;
    }
    place.textContent = "";
    if (text) {
      const line = document.createElement("p");
      line.className = "said " + (refused ? "refused" : "done");
      line.textContent = text;
      place.appendChild(line);
    }
  }

  // Plays: the form is posted by fetch, and the page shows the game after it, with the
  // service's reason when the play was refused (the game moved on, not your turn...).
  let sending = false;
  document.addEventListener("submit", async function (event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.id !== "play") {
      return;
    }
    event.preventDefault();
    const button = event.submitter;
    if (sending) {
      return;
    }
    if (button && button.dataset.confirm && !window.confirm(button.dataset.confirm)) {
      return;
    }
    sending = true;
    let answer = { ok: false, said: "" };
    try {
      const body = new FormData(form, button);
      const response = await fetch(form.action, {
        method: "POST",
        body: new URLSearchParams(body),
        headers: { Accept: "application/json" },
      });
      answer.ok = response.ok;
      try {
        answer = await response.json();
      } catch (error) {
        // not JSON: a proxy's error page; the refresh below shows where the game is
      }
    } finally {
      // the play is decided once its answer is here: the next may go (the page may
      // already show the game after it, from the event stream)
      sending = false;
    }
    await refresh("");
    say(answer.said, !answer.ok);
  });

  // The move button a letter names: the same letter first (case decides where any pit may
  // be played); a key typed in the other case names the player's own pit, as in chat, but a
  // click on the opponent's pit is no move of the player's.
  function moveButton(letter, exact) {
    const buttons = Array.from(live.querySelectorAll("button.move"));
    const same = buttons.filter(function (b) {
      return b.value === letter;
    });
    if (same.length === 1 || exact) {
      return same.length === 1 ? same[0] : null;
    }
    const found = buttons.filter(function (b) {
      return b.value.toUpperCase() === letter.toUpperCase();
    });
    return found.length === 1 ? found[0] : null;
  }

  // A click on a pit of the picture plays it, when it is the player's move.
  live.addEventListener("click", function (event) {
    const link = event.target.closest("a[data-ply]");
    if (link) {
      event.preventDefault();
      step(link.dataset.ply);
      return;
    }
    const pit = event.target.closest("[data-pit]");
    if (pit && shown().playable === "yes") {
      const button = moveButton(pit.dataset.pit, true);
      if (button) {
        button.click();
      }
    }
  });

  // The ply stepped to last: keys pressed faster than the pages arrive each count.
  let wanted = null;

  function step(ply) {
    wanted = Number(ply);
    const query = "?ply=" + encodeURIComponent(ply);
    refresh(query).then(function (done) {
      if (done && wanted === Number(ply)) {
        history.replaceState(null, "", query);
        wanted = null;
      }
    });
  }

  function stepBy(delta) {
    const steps = live.querySelector(".steps");
    if (!steps) {
      return false;
    }
    const from = wanted === null ? Number(steps.dataset.at) : wanted;
    const to = Math.min(Number(steps.dataset.total), Math.max(0, from + delta));
    if (to !== from) {
      step(to);
    }
    return true;
  }

  // Keys: a pit's letter plays it; the arrows step through a finished game.
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
      return;
    }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      if (stepBy(event.key === "ArrowLeft" ? -1 : 1)) {
        event.preventDefault();
      }
      return;
    }
    if (/^[a-lA-L]$/.test(event.key) && shown().playable === "yes") {
      const button = moveButton(event.key);
      if (button) {
        event.preventDefault();
        button.click();
      }
    }
  });

  // Live: the server says the game's state each time it changes; a page showing another
  // state asks for the live part again.
  if (main.dataset.events && window.EventSource) {
    const source = new EventSource(main.dataset.events);
    source.addEventListener("state", function (event) {
      if (event.data !== shown().state) {
        refresh("").then(function () {
          const news = document.getElementById("news");
          const status = live.querySelector(".status");
          if (news && status) {
            news.textContent = status.textContent;
          }
        });
      }
      if (event.data.split(".")[1] === "over") {
        source.close(); // nothing more will happen in this game
      }
    });
  }
})();
