/* The list of recorded games: the count of games found, in the page's language. */
(function () {
  "use strict";
  function render() {
    const box = document.getElementById("filter-count");
    if (box) box.textContent = Companion.t("filter.count", { n: box.dataset.n, total: box.dataset.total });
  }
  document.addEventListener("DOMContentLoaded", () => { Companion.onLang(render); render(); });
})();
