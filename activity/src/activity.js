// The Discord Activity's page (bot/web/activity.py): sign in through Discord's Embedded App
// SDK, then show the channel's game live and play it by click or by key. Built with esbuild
// into bot/web/static/activity.js (npm run build), which the package ships.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

const main = document.getElementById("activity");
const live = document.getElementById("live");
const query = new URLSearchParams(window.location.search);

// The SDK: Discord's, or (a server setting for the tests, never the visitor's choice) the
// SDK's own mock, whose channel and authorization code come from the address.
function makeSdk() {
  if (main.dataset.mock !== "yes") {
    return new DiscordSDK(main.dataset.clientId);
  }
  const sdk = new DiscordSDKMock(
    main.dataset.clientId,
    query.get("guild_id"),
    query.get("channel_id"),
    null,
  );
  const code = query.get("mock_code") || "mock_code";
  sdk._updateCommandMocks({ authorize: async () => ({ code }) });
  return sdk;
}

let sdk = null; // made once the page knows it is in Discord (or the tests' mock)
let session = null;
let gameShown = null; // the game the page shows, to keep a finished one in view
let source = null; // the event stream of the game shown
let polling = null; // without a game: ask now and then whether one began

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

function shown() {
  const marker = live.querySelector(".state");
  return marker ? marker.dataset : {};
}

async function signIn() {
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: main.dataset.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("/activity/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok || !answer.session) {
    throw new Error(answer.said || main.dataset.failed);
  }
  await sdk.commands.authenticate({ access_token: answer.access_token });
  session = answer.session;
}

// A call to our server with the session; a session that expired signs in again, once.
async function call(url, options) {
  const send = () =>
    fetch(url, {
      ...options,
      cache: "no-store",
      headers: { ...(options || {}).headers, Authorization: "Bearer " + session },
    });
  let response = await send();
  if (response.status === 401) {
    await signIn();
    response = await send();
  }
  return response;
}

function follow(part) {
  const game = part ? part.dataset.game || null : null;
  const events = part ? part.dataset.events : undefined;
  if (source && (!events || game !== gameShown)) {
    source.close();
    source = null;
  }
  gameShown = game;
  if (events && !source && window.EventSource) {
    source = new EventSource(events);
    source.addEventListener("state", (event) => {
      if (event.data !== shown().state) {
        refresh().then(() => {
          const news = document.getElementById("news");
          const status = live.querySelector(".status");
          if (news && status) {
            news.textContent = status.textContent;
          }
        });
      }
    });
  }
  // no live game: a game may begin here from Discord or from another participant
  if (!events && !polling) {
    polling = window.setInterval(refresh, 3000);
  } else if (events && polling) {
    window.clearInterval(polling);
    polling = null;
  }
}

// Fetch the part anew and put it in place; only the newest request's answer is shown.
let latest = 0;
async function refresh() {
  const ticket = ++latest;
  const address = new URLSearchParams({ channel: sdk.channelId });
  if (gameShown) {
    address.set("game", gameShown);
  }
  let response;
  try {
    response = await call("/activity/part?" + address.toString());
  } catch (error) {
    return false; // the server or Discord away a moment: the next news asks again
  }
  if (!response.ok || ticket !== latest) {
    return false;
  }
  const text = await response.text();
  if (ticket !== latest) {
    return false;
  }
  live.innerHTML = text;
  const part = live.firstElementChild;
  if (part && part.dataset.lang) {
    document.documentElement.lang = part.dataset.lang;
    document.title = part.dataset.title;
  }
  follow(part);
  return true;
}

// A play: the service's verb on the server, for the board this page showed (its ply), so
// a second click or a board that moved on is refused and said, never played twice.
let sending = false;
async function send(fields) {
  if (sending) {
    return;
  }
  sending = true;
  let answer = { ok: false, said: "" };
  try {
    const body = new URLSearchParams(fields);
    body.set("channel", sdk.channelId);
    if (sdk.guildId) {
      body.set("guild", sdk.guildId);
    }
    if (gameShown) {
      body.set("game", gameShown);
    }
    const response = await call("/activity/play", { method: "POST", body });
    answer = await response.json().catch(() => ({ ok: false, said: "" }));
    if (answer.game) {
      gameShown = String(answer.game);
    }
  } catch (error) {
    // not sent, or its answer lost: the refresh below shows whether it was played
    answer = { ok: false, said: main.dataset.offline };
  } finally {
    sending = false;
  }
  await refresh();
  say(answer.said, !answer.ok);
}

function move(letter) {
  send({ do: "move", move: letter, ply: shown().ply || "" });
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.id !== "play") {
    return;
  }
  event.preventDefault();
  const button = event.submitter;
  if (button && button.dataset.confirm && !window.confirm(button.dataset.confirm)) {
    return;
  }
  send(new FormData(form, button));
});

// A pit of one's own side of the picture (uppercase: the board is turned to the viewer)
// plays it; the server says why when it is not the viewer's move.
live.addEventListener("click", (event) => {
  const pit = event.target.closest("[data-pit]");
  if (pit && /^[A-Z]$/.test(pit.dataset.pit) && shown().ply !== undefined) {
    move(pit.dataset.pit);
  }
});

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) {
    return;
  }
  if (/^[a-lA-L]$/.test(event.key) && shown().ply !== undefined) {
    event.preventDefault();
    move(event.key.toUpperCase());
  }
});

async function start() {
  if (main.dataset.mock !== "yes" && !query.get("frame_id")) {
    say(main.dataset.nochannel, true); // opened outside Discord: the SDK would throw
    return;
  }
  try {
    sdk = makeSdk();
    await signIn();
  } catch (error) {
    say(String(error.message || main.dataset.failed), true);
    return;
  }
  if (!sdk.channelId) {
    say(main.dataset.nochannel, true);
    return;
  }
  if (!(await refresh())) {
    say(main.dataset.offline, true);
  }
}

start();
