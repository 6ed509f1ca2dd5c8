// A puzzle's page: a click on a pit of the picture, or its letter typed, presses its answer
// button. Without this script the buttons answer by themselves.
"use strict";

(function () {
  const form = document.getElementById("answer");
  if (!form) {
    return;
  }

  // The buttons are the mover's pits, lettered as the near row of the picture (uppercase);
  // a typed letter may be either case, a clicked pit of the far row answers nothing.
  function answerButton(letter) {
    const found = Array.from(form.querySelectorAll("button.move")).filter(function (b) {
      return b.value === letter;
    });
    return found.length === 1 ? found[0] : null;
  }

  document.addEventListener("click", function (event) {
    const pit = event.target.closest("[data-pit]");
    const button = pit ? answerButton(pit.dataset.pit) : null;
    if (button) {
      button.click();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || !/^[a-lA-L]$/.test(event.key)) {
      return;
    }
    const button = answerButton(event.key.toUpperCase());
    if (button) {
      event.preventDefault();
      button.click();
    }
  });
})();
