/* Language switch (English / German), PIN-aware POST helper and toasts. No framework. */
(function () {
  "use strict";
  const STRINGS = {
    en: {
      "brand": "Table companion", "nav.live": "Live table", "nav.review": "Recorded games",
      "nav.calibration": "Camera", "turn": "Turn", "active": "Active player", "phase": "Phase",
      "scores": "Scores", "violations": "Violations", "violations.none": "No rule broken so far.",
      "referee": "Referee", "act.next": "Next phase", "act.pass": "End turn", "act.undo": "Undo last move", "act.redo": "Redo",
      "act.declare.label": "Something else the camera cannot see", "act.declare": "Declare",
      "act.declare.placeholder": "chosen effect, e.g. draw 2", "act.declare.notarget": "no target",
      "legal": "Legal moves now", "legal.none": "No move listed for this moment.", "log": "Moves",
      "log.none": "Nothing has happened yet.", "question.title": "Which was it?",
      "stands": "Stands", "corrected": "Corrected", "decision.stands": "stands",
      "decision.corrected": "corrected", "decision.open": "open", "rule": "Rule",
      "health.markers": "markers", "health.calibrated": "calibrated", "health.uncalibrated": "not calibrated",
      "status.ok": "camera ok", "status.starting": "starting", "status.reconnecting": "reconnecting",
      "status.stopped": "stopped", "status.finished": "demo finished", "status.lost": "camera lost",
      "conn.connecting": "connecting", "conn.live": "live", "conn.offline": "reconnecting",
      "pin.title": "PIN required", "pin.help": "Enter the PIN shown in the terminal where the companion runs.",
      "pin.wrong": "That PIN was not accepted.", "cancel": "Cancel", "ok": "OK",
      "must": "Must", "may": "May", "ends": "Ends when", "automatic": "Happens by itself",
      "winner": "wins", "draw": "Draw", "gameover": "Game over", "illegal": "illegal",
      "corrected.move": "taken back", "source.camera": "camera", "source.person": "person",
      "source.automatic": "automatic", "review.title": "Recorded games",
      "review.help": "Every game is kept move by move. Open one to step through it.",
      "review.game": "Game", "review.players": "Players", "review.started": "Started",
      "review.events": "Events", "review.result": "Result", "review.wins": "wins", "review.draw": "draw",
      "review.open": "open", "review.none": "No games recorded yet.", "review.back": "All games",
      "review.nextviolation": "Next violation", "review.keyframe": "Camera at this step",
      "review.timeline": "Timeline", "review.offline": "not on the main line (corrected)",
      "kind.move": "Move", "kind.violation": "Violation", "kind.decision": "Decision",
      "kind.correction": "Correction", "kind.question": "Question", "kind.phase": "Phase",
      "kind.camera": "Camera", "kind.note": "Note", "cal.title": "Camera and calibration",
      "cal.help": "The live image with the mat corners, zones and every marker found drawn over it. All four corners must be found before the table can be read.",
      "cal.checks": "Checks", "cal.status": "Camera", "cal.fps": "Frames per second",
      "cal.markers": "Markers seen", "cal.ready": "Mat corners found", "cal.detail": "Detail",
      "done": "Done", "facedown": "face down", "tapped": "tapped", "next": "Next", "setup": "Setup",
      "offers.person": "Tell the companion what the camera cannot see",
      "offers.table": "Moves the camera sees (enter one only if it missed it)",
      "offers.none": "Nothing to declare at this moment.",
      "offers.hidden": "{n} more legal moves name cards that are not face up (not shown).",
      "entered": "Entered", "question.help": "The camera saw a change that fits more than one move. Pick what really happened.",
      "question.later": "Decide later", "question.open": "Open question",
      "cal.hint.corners": "Not all four mat corners are found: the camera must see the whole mat from above, evenly lit, with no hand or card on a corner marker.",
      "cal.hint.lost": "No image from the camera: check the cable or the stream address; the game is kept and continues when frames come back."
    },
    de: {
      "brand": "Tisch-Begleiter", "nav.live": "Live-Tisch", "nav.review": "Aufgezeichnete Partien",
      "nav.calibration": "Kamera", "turn": "Zug", "active": "Am Zug", "phase": "Phase",
      "scores": "Punktestand", "violations": "Regelverstöße", "violations.none": "Bisher kein Regelverstoß.",
      "referee": "Schiedsrichter", "act.next": "Nächste Phase", "act.pass": "Zug beenden",
      "act.undo": "Letzten Zug zurücknehmen", "act.redo": "Wiederherstellen", "act.declare.label": "Sonst etwas, das die Kamera nicht sieht",
      "act.declare": "Ansagen", "act.declare.placeholder": "gewählter Effekt, z. B. 2 ziehen",
      "act.declare.notarget": "kein Ziel", "legal": "Jetzt erlaubte Züge",
      "legal.none": "Für diesen Moment ist kein Zug aufgeführt.", "log": "Züge",
      "log.none": "Noch ist nichts passiert.", "question.title": "Was war es?",
      "stands": "Bleibt", "corrected": "Korrigiert", "decision.stands": "bleibt",
      "decision.corrected": "korrigiert", "decision.open": "offen", "rule": "Regel",
      "health.markers": "Marker", "health.calibrated": "kalibriert", "health.uncalibrated": "nicht kalibriert",
      "status.ok": "Kamera ok", "status.starting": "startet", "status.reconnecting": "verbindet neu",
      "status.stopped": "angehalten", "status.finished": "Demo beendet", "status.lost": "Kamera verloren",
      "conn.connecting": "verbinde", "conn.live": "live", "conn.offline": "verbinde neu",
      "pin.title": "PIN nötig", "pin.help": "Gib die PIN ein, die im Terminal des Begleiters steht.",
      "pin.wrong": "Diese PIN wurde nicht angenommen.", "cancel": "Abbrechen", "ok": "OK",
      "must": "Muss", "may": "Darf", "ends": "Endet, wenn", "automatic": "Geschieht von selbst",
      "winner": "gewinnt", "draw": "Unentschieden", "gameover": "Partie vorbei", "illegal": "regelwidrig",
      "corrected.move": "zurückgenommen", "source.camera": "Kamera", "source.person": "Person",
      "source.automatic": "automatisch", "review.title": "Aufgezeichnete Partien",
      "review.help": "Jede Partie wird Zug für Zug aufbewahrt. Öffne eine, um sie durchzugehen.",
      "review.game": "Spiel", "review.players": "Spieler", "review.started": "Begonnen",
      "review.events": "Ereignisse", "review.result": "Ergebnis", "review.wins": "gewinnt",
      "review.draw": "unentschieden", "review.open": "offen", "review.none": "Noch keine Partie aufgezeichnet.",
      "review.back": "Alle Partien", "review.nextviolation": "Nächster Verstoß",
      "review.keyframe": "Kamerabild zu diesem Schritt", "review.timeline": "Zeitleiste",
      "review.offline": "nicht in der Hauptlinie (korrigiert)", "kind.move": "Zug",
      "kind.violation": "Verstoß", "kind.decision": "Entscheidung", "kind.correction": "Korrektur",
      "kind.question": "Frage", "kind.phase": "Phase", "kind.camera": "Kamera", "kind.note": "Notiz",
      "cal.title": "Kamera und Kalibrierung",
      "cal.help": "Das Live-Bild mit Mattenecken, Zonen und allen gefundenen Markern. Alle vier Ecken müssen gefunden sein, bevor der Tisch gelesen werden kann.",
      "cal.checks": "Prüfungen", "cal.status": "Kamera", "cal.fps": "Bilder pro Sekunde",
      "cal.markers": "Gesehene Marker", "cal.ready": "Mattenecken gefunden", "cal.detail": "Detail",
      "done": "Erledigt", "facedown": "verdeckt", "tapped": "getappt", "next": "Danach", "setup": "Vorbereitung",
      "offers.person": "Sag dem Begleiter, was die Kamera nicht sieht",
      "offers.table": "Züge, die die Kamera sieht (nur eingeben, wenn sie einen verpasst hat)",
      "offers.none": "Gerade gibt es nichts anzusagen.",
      "offers.hidden": "{n} weitere erlaubte Züge nennen Karten, die nicht offen liegen (nicht gezeigt).",
      "entered": "Eingegeben", "question.help": "Die Kamera hat eine Änderung gesehen, die zu mehreren Zügen passt. Wähle, was wirklich geschah.",
      "question.later": "Später entscheiden", "question.open": "Offene Frage",
      "cal.hint.corners": "Nicht alle vier Mattenecken gefunden: Die Kamera muss die ganze Matte von oben sehen, gleichmäßig beleuchtet, ohne Hand oder Karte auf einem Eckmarker.",
      "cal.hint.lost": "Kein Bild von der Kamera: Kabel oder Stream-Adresse prüfen; die Partie bleibt erhalten und läuft weiter, sobald wieder Bilder kommen."
    }
  };
  const listeners = [];
  let lang = localStorage.getItem("companion.lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en");

  function t(key) { return (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key; }

  function apply(root) {
    (root || document).querySelectorAll("[data-i18n]").forEach(el => { el.textContent = t(el.dataset.i18n); });
    (root || document).querySelectorAll("[data-i18n-placeholder]").forEach(el => { el.placeholder = t(el.dataset.i18nPlaceholder); });
    document.documentElement.lang = lang;
    document.querySelectorAll(".lang-switch button").forEach(b => b.classList.toggle("active", b.dataset.lang === lang));
  }

  function setLang(next) {
    lang = next === "de" ? "de" : "en";
    localStorage.setItem("companion.lang", lang);
    apply();
    listeners.forEach(fn => fn(lang));
  }

  let toastTimer = null;
  function toast(message, kind) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = message;
    el.dataset.kind = kind || "info";
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
  }

  function askPin() {
    const dialog = document.getElementById("pin-dialog");
    const input = document.getElementById("pin-input");
    return new Promise(resolve => {
      input.value = "";
      dialog.addEventListener("close", () => {
        resolve(dialog.returnValue === "ok" ? input.value.trim() : null);
      }, { once: true });
      dialog.showModal();
    });
  }

  function requestId() {
    // one id per click, kept through PIN retries: the server answers a repeat, never applies it twice
    const a = new Uint32Array(3); crypto.getRandomValues(a);
    return Array.from(a, n => n.toString(36)).join("-");
  }

  async function post(url, body) {
    body = Object.assign({ id: requestId() }, body || {});
    for (let attempt = 0; attempt < 3; attempt++) {
      const headers = { "Content-Type": "application/json" };
      const pin = sessionStorage.getItem("companion.pin");
      if (pin) headers["X-Companion-PIN"] = pin;
      const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body || {}) });
      let data = {};
      try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
      if (res.status === 403 && document.body.dataset.pinRequired === "yes") {
        document.getElementById("pin-error").hidden = !pin;
        sessionStorage.removeItem("companion.pin");
        const entered = await askPin();
        if (!entered) return null;
        sessionStorage.setItem("companion.pin", entered);
        continue;
      }
      if (!res.ok) { toast(data.error || res.statusText, "error"); return null; }
      return data;
    }
    return null;
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".lang-switch button").forEach(b => b.addEventListener("click", () => setLang(b.dataset.lang)));
    apply();
  });

  window.Companion = { t, apply, setLang, post, toast, get lang() { return lang; }, onLang: fn => listeners.push(fn) };
})();
