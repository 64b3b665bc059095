/* The calibration page: camera figures follow the live stream; the image is MJPEG. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  let last = null;
  function render(h) {
    last = h;
    const box = $("health"); box.dataset.status = h.status;
    $("health-status").textContent = Companion.t("status." + h.status);
    $("health-fps").textContent = Number(h.fps).toFixed(1);
    $("health-markers").textContent = h.markers;
    $("cal-status").textContent = Companion.t("status." + h.status);
    $("cal-fps").textContent = Number(h.fps).toFixed(1);
    $("cal-markers").textContent = h.markers;
    $("cal-ready").textContent = h.calibrated ? "✓" : "✗";
    $("cal-ready").className = h.calibrated ? "good" : "bad";
    $("cal-hint").hidden = h.calibrated || !["ok", "starting"].includes(h.status);
    $("cal-hint-lost").hidden = !["reconnecting", "lost"].includes(h.status);
    $("cal-detail").textContent = (Companion.lang === "de" && h.detail_de) || h.detail || "–";
  }
  document.addEventListener("DOMContentLoaded", () => {
    render(JSON.parse($("initial-state").textContent).health);
    Companion.onLang(() => { if (last) render(last); });
    const source = new EventSource("/api/stream");
    source.addEventListener("state", ev => render(JSON.parse(ev.data).health));
    source.addEventListener("health", ev => render(JSON.parse(ev.data)));
    $("cal-image").addEventListener("error", () => setTimeout(() => { $("cal-image").src = "/calibration/stream.mjpg?" + Date.now(); }, 1000));
  });
})();
