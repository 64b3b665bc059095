/* The calibration page: camera figures follow the live stream; the image is MJPEG. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  let last = null;
  function render(h) {
    last = h;
    const box = $("health"); box.dataset.status = h.status;
    $("health-status").textContent = Companion.t("status." + h.status);
    box.title = Companion.plain((Companion.lang === "de" && h.detail_de) || h.detail || "");
    $("health-fps").textContent = Number(h.fps).toFixed(1);
    $("health-markers").textContent = h.markers;
    $("cal-status").textContent = Companion.t("status." + h.status);
    $("cal-fps").textContent = Number(h.fps).toFixed(1);
    $("cal-markers").textContent = h.markers;
    $("cal-ready").textContent = h.calibrated ? "✓" : "✗";
    $("cal-ready").className = h.calibrated ? "good" : "bad";
    $("cal-hint").hidden = h.calibrated || !["ok", "starting"].includes(h.status);
    $("cal-hint-lost").hidden = !["reconnecting", "lost"].includes(h.status);
    $("cal-detail").textContent = Companion.plain((Companion.lang === "de" && h.detail_de) || h.detail || "") || "–";
    // further plain messages from the camera (mat fit, a black, frozen or mirrored picture)
    const fit = h["mat_fit_" + Companion.lang] || h.mat_fit;
    $("cal-fit-row").hidden = fit === undefined || fit === null || fit === "";
    if (!$("cal-fit-row").hidden) $("cal-fit").textContent = typeof fit === "object" ? Companion.plain(fit[Companion.lang] || fit.en || JSON.stringify(fit)) : Companion.plain(String(fit));
    const notes = h["messages_" + Companion.lang] || h.messages || [];
    const list = $("cal-messages");
    while (list.firstChild) list.removeChild(list.firstChild);
    (Array.isArray(notes) ? notes : [notes]).forEach(m => { const li = document.createElement("li"); li.textContent = Companion.plain(typeof m === "object" ? (m[Companion.lang] || m.en || "") : m); list.appendChild(li); });
    list.hidden = !list.children.length;
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
