// A phone's browser as the table's camera: the rear camera's picture, sent as JPEG frames to
// POST /camera/phone/frame. A cheap motion check on a tiny copy of the picture decides the
// pace: STILL_MS apart while nothing moves, MOVING_MS apart while something does (and for
// MOVING_HOLD_MS after). One frame is in flight at a time: a slow network or a busy laptop
// makes the phone send fewer frames, never a backlog.
(() => {
  "use strict";

  const STILL_MS = 333;        // 3 frames a second on a still table
  const MOVING_MS = 100;       // up to 10 a second while a hand moves
  const MOVING_HOLD_MS = 1500; // keep the fast pace this long after the last motion
  const CHECK_MS = 80;         // how often the motion check looks
  const SMALL_W = 64, SMALL_H = 36;
  const MOTION_LEVEL = 4;      // mean luma change (0-255) per small pixel that counts as motion
  const MAX_SIDE = 1920;
  const QUALITY = 0.85;

  const de = (navigator.language || "").toLowerCase().startsWith("de");
  const TEXT = {
    en: {
      insecure: "This browser gives the camera only to a secure page: open the https:// address the companion printed.",
      nocamera: "The camera could not be opened: ",
      pinmissing: "Enter the PIN shown in the companion's terminal.",
      pinwrong: "That PIN was not accepted: ",
      offline: "The companion does not answer; trying again.",
      stopped: "Stopped. Tap \"Start the camera\" to send again.",
      sending: (n, fps, w, h) => `Sending: ${n} frames, ${fps} a second, ${w}x${h}.`,
      mat: m => m ? " The table sees the mat." : " The table does not see the mat yet: show it all four corner markers.",
    },
    de: {
      title: "Dieses Handy als Kamera des Tisches",
      where: "Das Handy in einer Halterung 50-60 cm über die Matte, die hintere Kamera nach unten, die ganze Matte mit ihren vier Eckmarkern im Bild. Diese Seite offen und den Bildschirm an lassen; für ein langes Spiel das Handy ans Ladekabel.",
      notready: "Dieser Tisch wurde nicht für eine Handykamera gestartet: mit companion serve --phone starten.",
      pin: "die PIN aus dem Terminal des Begleiters",
      start: "Kamera starten",
      stop: "Stopp",
      idle: "Noch nichts gesendet.",
      insecure: "Dieser Browser gibt die Kamera nur einer sicheren Seite: die https://-Adresse öffnen, die der Begleiter anzeigt.",
      nocamera: "Die Kamera ließ sich nicht öffnen: ",
      pinmissing: "Die PIN aus dem Terminal des Begleiters eingeben.",
      pinwrong: "Diese PIN wurde nicht angenommen: ",
      offline: "Der Begleiter antwortet nicht; neuer Versuch.",
      stopped: "Gestoppt. \"Kamera starten\" tippen, um wieder zu senden.",
      sending: (n, fps, w, h) => `Sende: ${n} Bilder, ${fps} pro Sekunde, ${w}x${h}.`,
      mat: m => m ? " Der Tisch sieht die Matte." : " Der Tisch sieht die Matte noch nicht: alle vier Eckmarker ins Bild.",
    },
  };
  const t = key => (de && TEXT.de[key]) || TEXT.en[key];

  const $ = id => document.getElementById(id);
  const body = document.body;
  const video = $("video"), status = $("status"), errorLine = $("error");
  const small = document.createElement("canvas");
  small.width = SMALL_W; small.height = SMALL_H;
  const smallCtx = small.getContext("2d", { willReadFrequently: true });
  const big = document.createElement("canvas");
  const bigCtx = big.getContext("2d");

  let stream = null, running = false, inFlight = false, timer = null, wakeLock = null;
  let lastSent = -1e9, movingUntil = 0, previous = null, sent = 0, acked = 0;
  const ackTimes = [];

  if (de) {
    document.documentElement.lang = "de";
    document.querySelectorAll("[data-t]").forEach(el => {
      const s = TEXT.de[el.dataset.t];
      if (typeof s === "string") el.textContent = s;
    });
  }

  function showError(message) {
    errorLine.textContent = message || "";
    errorLine.hidden = !message;
  }

  async function unlock() {
    if (body.dataset.pinRequired !== "yes") return true;
    const pin = $("pin").value.trim();
    if (!pin) { showError(t("pinmissing")); $("pin").focus(); return false; }
    let res;
    try {
      res = await fetch("/unlock", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin }) });
    } catch (e) { showError(t("offline")); return false; }
    if (res.ok) { $("pin-row").hidden = true; return true; }
    const data = await res.json().catch(() => ({}));
    showError(t("pinwrong") + ((de && data.error_de) || data.error || res.status));
    return false;
  }

  async function start() {
    showError("");
    if (!window.isSecureContext || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      showError(t("insecure"));
      return;
    }
    if (!(await unlock())) return;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: {
        facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } } });
    } catch (e) {
      showError(t("nocamera") + (e && (e.message || e.name) || e));
      return;
    }
    video.srcObject = stream;
    video.hidden = false;
    try { await video.play(); } catch (e) { /* autoplay of a muted video; the frames still come */ }
    await keepScreenOn();
    running = true;
    $("start").hidden = true;
    $("stop").hidden = false;
    body.dataset.running = "yes";
    tick();
  }

  async function keepScreenOn() {
    if (!navigator.wakeLock || wakeLock) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
    } catch (e) { /* no wake lock: the screen may dim; the page says to keep it on */ }
  }

  function stop(message) {
    running = false;
    clearTimeout(timer);
    if (stream) stream.getTracks().forEach(track => track.stop());
    stream = null;
    if (wakeLock) { wakeLock.release().catch(() => {}); wakeLock = null; }
    $("start").hidden = false;
    $("stop").hidden = true;
    body.dataset.running = "no";
    status.textContent = message || t("stopped");
  }

  // mean absolute change of the tiny grey picture since the last look (0-255)
  function motion() {
    smallCtx.drawImage(video, 0, 0, SMALL_W, SMALL_H);
    const rgba = smallCtx.getImageData(0, 0, SMALL_W, SMALL_H).data;
    const grey = new Uint8Array(SMALL_W * SMALL_H);
    for (let i = 0, j = 0; j < grey.length; i += 4, j++) {
      grey[j] = (rgba[i] * 77 + rgba[i + 1] * 150 + rgba[i + 2] * 29) >> 8;
    }
    let change = 0;
    if (previous) {
      let sum = 0;
      for (let j = 0; j < grey.length; j++) sum += Math.abs(grey[j] - previous[j]);
      change = sum / grey.length;
    }
    previous = grey;
    return change;
  }

  function tick() {
    if (!running) return;
    const now = performance.now();
    if (video.videoWidth > 0) {
      if (motion() > MOTION_LEVEL) movingUntil = now + MOVING_HOLD_MS;
      const moving = now < movingUntil;
      body.dataset.moving = moving ? "yes" : "no";
      if (!inFlight && now - lastSent >= (moving ? MOVING_MS : STILL_MS)) send(now);
    }
    timer = setTimeout(tick, CHECK_MS);
  }

  function send(now) {
    inFlight = true;
    lastSent = now;
    const w = video.videoWidth, h = video.videoHeight;
    const scale = Math.min(1, MAX_SIDE / Math.max(w, h));
    big.width = Math.round(w * scale);
    big.height = Math.round(h * scale);
    bigCtx.drawImage(video, 0, 0, big.width, big.height);
    big.toBlob(blob => {
      if (!blob || !running) { inFlight = false; return; }
      post(blob, big.width, big.height).finally(() => { inFlight = false; });
    }, "image/jpeg", QUALITY);
  }

  async function post(blob, w, h) {
    sent += 1;
    body.dataset.sent = String(sent);
    let res;
    try {
      res = await fetch("/camera/phone/frame", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "image/jpeg" }, body: blob });
    } catch (e) {
      showError(t("offline"));
      lastSent = performance.now() + 2000; // wait a little before the next try
      return;
    }
    const data = await res.json().catch(() => ({}));
    const said = (de && data.error_de) || data.error || String(res.status);
    if (res.status === 403 && body.dataset.pinRequired === "yes") {
      $("pin-row").hidden = false;
      stop();
      showError(t("pinwrong") + said);
      return;
    }
    if (res.status === 409) { stop(); showError(said); return; }
    if (!res.ok) { showError(said); return; }
    showError("");
    acked += 1;
    const now = performance.now();
    ackTimes.push(now);
    while (ackTimes.length && now - ackTimes[0] > 3000) ackTimes.shift();
    const fps = ackTimes.length > 1 ? ((ackTimes.length - 1) * 1000 / (now - ackTimes[0])).toFixed(1) : "–";
    body.dataset.acked = String(acked);
    body.dataset.mat = data.mat ? "yes" : "no";
    status.dataset.mat = data.mat ? "yes" : "no";
    status.textContent = t("sending")(acked, fps, w, h) + ("mat" in data ? t("mat")(data.mat) : "");
  }

  $("start").addEventListener("click", start);
  $("stop").addEventListener("click", () => stop());
  document.addEventListener("visibilitychange", () => {
    // the browser lets go of the wake lock when the page is hidden: ask again on return
    if (document.visibilityState === "visible" && running) keepScreenOn();
  });
  window.phoneCamera = { get sent() { return sent; }, get acked() { return acked; },
    get moving() { return performance.now() < movingUntil; } };
})();
