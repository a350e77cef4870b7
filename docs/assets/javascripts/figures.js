// A figure opens at full size, over the page, on a click or on Enter; a second click, Enter or Escape closes it.
(() => {
  const FULL = "ascend-figure--full";
  const toggle = (figure) => figure.classList.toggle(FULL);
  document.addEventListener("click", (event) => {
    const figure = event.target instanceof Element ? event.target.closest(".ascend-figure") : null;
    if (figure) toggle(figure);
  });
  document.addEventListener("keydown", (event) => {
    const figure = event.target instanceof Element ? event.target.closest(".ascend-figure") : null;
    if (event.key === "Enter" && figure) toggle(figure);
    if (event.key === "Escape") document.querySelectorAll(`.${FULL}`).forEach((open) => open.classList.remove(FULL));
  });
})();
