// A figure opens at full size, over the page, on a click or on Enter; a second click, Enter, Escape or its close
// button closes it. Full size is the whole figure fitted to the window (on a phone too), with the close button
// in the corner, labelled in the page's language.
(() => {
  const FULL = "ascend-figure--full";
  const CLOSE = "ascend-figure__close";
  const close = (figure) => {
    figure.classList.remove(FULL);
    figure.querySelector(`:scope > .${CLOSE}`)?.remove();
  };
  const open = (figure) => {
    figure.classList.add(FULL);
    const button = document.createElement("button");
    button.type = "button";
    button.className = CLOSE;
    button.textContent = "×";
    button.setAttribute("aria-label", document.documentElement.lang.startsWith("zh") ? "关闭" : "Close");
    figure.prepend(button);
    button.focus({ preventScroll: true });
  };
  const toggle = (figure) => (figure.classList.contains(FULL) ? close(figure) : open(figure));
  document.addEventListener("click", (event) => {
    const figure = event.target instanceof Element ? event.target.closest(".ascend-figure") : null;
    if (figure) toggle(figure);
  });
  document.addEventListener("keydown", (event) => {
    const figure = event.target instanceof Element ? event.target.closest(".ascend-figure") : null;
    if (event.key === "Enter" && figure) {
      event.preventDefault();
      toggle(figure);
    }
    if (event.key === "Escape") document.querySelectorAll(`.${FULL}`).forEach(close);
  });
})();
