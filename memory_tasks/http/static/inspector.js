// The inspector's only script: confirmations for destructive forms. The pages work without it
// (the server checks the typed confirmation itself).
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  // Forget: the button stays disabled until the user id is typed exactly.
  for (const form of document.querySelectorAll("form[data-typed-confirm]")) {
    const input = form.querySelector("input[name=confirm]");
    const button = form.querySelector("button[type=submit]");
    const update = () => { button.disabled = input.value.trim() !== form.dataset.typedConfirm; };
    input.addEventListener("input", update);
    update();
  }
  // Delete: a confirmation dialog with the text the server put on the form.
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
});
