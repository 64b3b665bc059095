/* Language switch (English / German), plural forms, PIN-aware POST helper and toasts. No framework. */
(function () {
  "use strict";
  const STRINGS = {
    en: {
      "brand": "Table companion", "nav.live": "Live table", "nav.review": "Recorded games",
      "nav.calibration": "Camera", "turn": "Turn", "active": "Active player", "phase": "Phase",
      "scores": "Scores", "violations": "Violations", "violations.none": "No rule broken so far.",
      "referee": "Referee", "act.next": "Next phase", "act.pass": "End turn", "act.undo": "Undo",
      "act.redo": "Redo", "history.undone": "Undone: {text}", "history.redone": "Redone: {text}",
      "act.declare.label": "Something else the camera cannot see", "act.declare": "Declare",
      "act.declare.placeholder": "chosen effect, e.g. draw 2", "act.declare.notarget": "no target",
      "log": "Moves", "log.none": "Nothing has happened yet.", "question.title": "Which was it?",
      "stands": "Stands", "corrected": "Corrected", "decision.stands": "Stands",
      "decision.corrected": "Corrected", "decision.open": "Open", "decision.change": "Change",
      "stands.help": "The move stays as it was played.", "corrected.help": "The move is taken back.",
      "rulebook": "Rulebook",
      "health.markers": "markers", "health.calibrated": "calibrated", "health.uncalibrated": "not calibrated",
      "status.ok": "camera ok", "status.starting": "starting", "status.reconnecting": "reconnecting",
      "status.stopped": "stopped", "status.finished": "demo finished", "status.lost": "camera lost", "status.stalled": "camera stalled",
      "conn.connecting": "connecting", "conn.live": "live", "conn.offline": "reconnecting",
      "pin.title": "PIN required", "pin.help": "Enter the PIN shown in the terminal where the companion runs.",
      "pin.wrong": "That PIN was not accepted.", "cancel": "Cancel", "ok": "OK",
      "must": "Must", "may": "May", "ends": "Ends when", "automatic": "Happens by itself",
      "winner": "wins", "draw": "Draw", "gameover": "Game over", "illegal": "illegal",
      "banner.turn": "{name}'s turn", "banner.turn.s": "{name}' turn", "banner.over": "Game over",
      "banner.wins": "{name} wins", "banner.setup": "Setup",
      "corrected.move": "taken back", "source.camera": "camera", "source.person": "person",
      "source.automatic": "automatic", "source.assumed": "assumed, not answered", "review.title": "Recorded games",
      "review.help": "Every game is kept move by move. Open one to step through it, name it, note things on it or send it to someone.",
      "review.game": "Game", "review.players": "Players", "review.started": "Started",
      "review.events": "Moves", "review.result": "Result", "review.wins": "wins", "review.draw": "draw",
      "review.none": "No games recorded yet.", "review.nomatch": "No game matches this search.",
      "review.back": "All games", "review.violations": "Violations",
      "review.nextviolation": "Next violation", "review.prevviolation": "Previous violation",
      "review.keyframe": "Camera at this step (click to enlarge)", "review.nokeyframe": "No camera image at this step.",
      "review.timeline": "Timeline", "review.offline": "not on the main line (corrected)",
      "review.play": "Play", "review.pause": "Pause", "review.first": "First step", "review.last": "Last step",
      "review.prev": "Previous step", "review.next": "Next step", "review.link": "Link to this step",
      "review.linked": "Link to this step copied", "review.download": "Download as one HTML file",
      "review.speed": "Speed", "review.step": "Step",
      "filter.search": "Search", "filter.q": "Words (name, player, note)", "filter.game": "Game",
      "filter.player": "Player", "filter.violations": "Violations", "filter.any": "any",
      "filter.with": "with violations", "filter.without": "without violations", "filter.status": "Status",
      "filter.apply": "Search", "filter.reset": "Show all", "filter.count": "{n} of {total} games",
      "status.live": "being played", "status.finished": "finished", "status.abandoned": "abandoned",
      "status.interrupted": "interrupted",
      "lib.rename": "Name", "lib.rename.label": "Name of this game", "lib.save": "Save",
      "lib.finish": "Mark finished", "lib.abandon": "Mark abandoned", "lib.winner": "Winner",
      "lib.drawn": "nobody (draw)", "lib.note": "Add a note", "lib.note.placeholder": "What happened, a ruling, a question for later",
      "lib.saved": "Saved", "lib.interrupted.help": "This game was not finished (the companion was stopped). Mark how it ended.",
      "notes": "Notes", "note.label": "A note for the record", "note.save": "Save note",
      "note.placeholder": "A note for the record (a ruling, a question for later)", "note.saved": "Note saved",
      "kind.move": "Move", "kind.violation": "Violation", "kind.decision": "Decision",
      "kind.correction": "Correction", "kind.question": "Question", "kind.phase": "Phase",
      "kind.camera": "Camera", "kind.note": "Note", "cal.title": "Camera and calibration",
      "cal.help": "The live image with the mat corners, zones and every marker found drawn over it. All four corners must be found before the table can be read.",
      "cal.checks": "Checks", "cal.status": "Camera", "cal.fps": "Frames per second",
      "cal.markers": "Markers seen", "cal.ready": "Mat corners found", "cal.detail": "Detail",
      "cal.fit": "Mat fit",
      "done": "Done", "facedown": "face down", "tapped": "tapped", "next": "Next", "setup": "Setup",
      "offers.person": "Tell the companion what the camera cannot see",
      "offers.table": "Moves the camera sees (enter one only if it missed it)",
      "offers.none": "Nothing to declare at this moment.",
      "offers.more.one": "1 more combination", "offers.more.other": "{n} more combinations",
      "offers.hidden.one": "1 more legal move names a card that is not face up (not shown).",
      "offers.hidden.other": "{n} more legal moves name cards that are not face up (not shown).",
      "entered": "Entered", "question.help": "The camera saw a change that fits more than one move. Pick what really happened.",
      "question.later": "Decide later", "unanswered": "Not answered: assumed", "unanswered.assumed": "assumed", "unsure": "Not sure", "unreadable": "Under the lamp's reflection", "unidentified": "Seen, not yet identified",
      "unanswered.help": "Play went on before anybody answered. The record took the most likely legal reading; pick another and the record takes it instead.", "question.open": "Open question", "question.answer": "Answer",
      "cal.hint.corners": "Not all four mat corners are found: the camera must see the whole mat from above, evenly lit, with no hand or card on a corner marker.",
      "cal.hint.lost": "No image from the camera: check the cable or the stream address; the game is kept and continues when frames come back.",
      "view.table": "Table view", "view.referee": "Referee view", "view.turn": "Turn around",
      "sound.on": "Sound on", "sound.off": "Sound off",
      "alert.violation": "Rule broken", "alert.question": "Question for the table",
      "alert.dismiss": "Dismiss", "alert.more.one": "and 1 more open violation",
      "alert.more.other": "and {n} more open violations",
      "card.close": "Close", "card.type": "Type", "card.colour": "Colour", "card.number": "Sticker number",
      "recording.paused": "Recording paused", "recording.waiting": "waiting to be saved", "die": "die",
      "automatic.prefix": "automatic", "assumed.prefix": "assumed, not answered", "demo.again": "Play again",
      "keys": "Keys", "keys.next": "next phase", "keys.turn": "end turn", "keys.undo": "undo",
      "keys.redo": "redo", "keys.answer": "answer", "keys.stands": "stands", "keys.corrected": "corrected",
      "toast.phase": "Phase: {name}", "toast.undo": "Undone", "toast.redo": "Redone",
      "toast.stands": "Violation stands", "toast.corrected": "Violation corrected: the move is taken back",
      "toast.answer": "Answered: {text}", "toast.nothing": "Nothing to press here now",
      "question.or": "or", "question.cards": "Cards",
      "camera.none": "No camera picture", "camera.black": "The camera picture is black",
"camera.frozen": "The camera picture is frozen",
      "camera.mat": "The mat is not in view", "camera.stopped": "The camera has stopped",
      "camera.stalled": "The camera picture stopped coming", "camera.unread": "The camera picture is not read",
      "camera.board": "the board shows the last table seen; nothing new is read until the camera is back.",
      "cameras.line": "Camera {n} ({who}): sees {sees}, cards {cards}, dice {dice}",
      "cameras.dropped": "Camera {n} ({who}): dropped out", "cameras.this": "this laptop",
      "cameras.half": "{name}'s half", "cameras.both": "the whole mat", "cameras.and": " and ",
      "cameras.nothing": "no part of the mat clearly", "cameras.p1": "player 1", "cameras.p2": "player 2",
      "cameras.unwatched": "{half}: not watched by any camera"
    },
    de: {
      "brand": "Tisch-Begleiter", "nav.live": "Live-Tisch", "nav.review": "Aufgezeichnete Partien",
      "nav.calibration": "Kamera", "turn": "Zug", "active": "Am Zug", "phase": "Phase",
      "scores": "Punktestand", "violations": "Regelverstöße", "violations.none": "Bisher kein Regelverstoß.",
      "referee": "Schiedsrichter", "act.next": "Nächste Phase", "act.pass": "Zug beenden",
      "act.undo": "Rückgängig", "act.redo": "Wiederholen",
      "history.undone": "Zurückgenommen: {text}", "history.redone": "Wiederhergestellt: {text}",
      "act.declare.label": "Sonst etwas, das die Kamera nicht sieht",
      "act.declare": "Ansagen", "act.declare.placeholder": "gewählter Effekt, z. B. 2 ziehen",
      "act.declare.notarget": "kein Ziel",
      "log": "Züge", "log.none": "Noch ist nichts passiert.", "question.title": "Was war es?",
      "stands": "Bleibt", "corrected": "Korrigiert", "decision.stands": "Bleibt",
      "decision.corrected": "Korrigiert", "decision.open": "Offen", "decision.change": "Ändern",
      "stands.help": "Der Zug bleibt, wie er gespielt wurde.", "corrected.help": "Der Zug wird zurückgenommen.",
      "rulebook": "Regelheft",
      "health.markers": "Marker", "health.calibrated": "kalibriert", "health.uncalibrated": "nicht kalibriert",
      "status.ok": "Kamera ok", "status.starting": "startet", "status.reconnecting": "verbindet neu",
      "status.stopped": "angehalten", "status.finished": "Demo beendet", "status.lost": "Kamera verloren", "status.stalled": "Kamera hängt",
      "conn.connecting": "verbinde", "conn.live": "live", "conn.offline": "verbinde neu",
      "pin.title": "PIN nötig", "pin.help": "Gib die PIN ein, die im Terminal des Begleiters steht.",
      "pin.wrong": "Diese PIN wurde nicht angenommen.", "cancel": "Abbrechen", "ok": "OK",
      "must": "Muss", "may": "Darf", "ends": "Endet, wenn", "automatic": "Geschieht von selbst",
      "winner": "gewinnt", "draw": "Unentschieden", "gameover": "Partie vorbei", "illegal": "regelwidrig",
      "banner.turn": "{name} ist am Zug", "banner.turn.s": "{name} ist am Zug", "banner.over": "Partie vorbei",
      "banner.wins": "{name} gewinnt", "banner.setup": "Vorbereitung",
      "corrected.move": "zurückgenommen", "source.camera": "Kamera", "source.person": "Person",
      "source.automatic": "automatisch", "source.assumed": "angenommen, nicht beantwortet", "review.title": "Aufgezeichnete Partien",
      "review.help": "Jede Partie wird Zug für Zug aufbewahrt. Öffne eine, um sie durchzugehen, zu benennen, Notizen dazu zu schreiben oder sie jemandem zu schicken.",
      "review.game": "Spiel", "review.players": "Spieler", "review.started": "Begonnen",
      "review.events": "Züge", "review.result": "Ergebnis", "review.wins": "gewinnt",
      "review.draw": "unentschieden", "review.none": "Noch keine Partie aufgezeichnet.",
      "review.nomatch": "Keine Partie passt zu dieser Suche.",
      "review.back": "Alle Partien", "review.violations": "Verstöße",
      "review.nextviolation": "Nächster Verstoß", "review.prevviolation": "Voriger Verstoß",
      "review.keyframe": "Kamerabild zu diesem Schritt (zum Vergrößern klicken)", "review.nokeyframe": "Kein Kamerabild zu diesem Schritt.",
      "review.timeline": "Zeitleiste",
      "review.offline": "nicht in der Hauptlinie (korrigiert)",
      "review.play": "Abspielen", "review.pause": "Anhalten", "review.first": "Erster Schritt", "review.last": "Letzter Schritt",
      "review.prev": "Voriger Schritt", "review.next": "Nächster Schritt", "review.link": "Link zu diesem Schritt",
      "review.linked": "Link zu diesem Schritt kopiert", "review.download": "Als eine HTML-Datei herunterladen",
      "review.speed": "Tempo", "review.step": "Schritt",
      "filter.search": "Suche", "filter.q": "Wörter (Name, Spieler, Notiz)", "filter.game": "Spiel",
      "filter.player": "Spieler", "filter.violations": "Verstöße", "filter.any": "alle",
      "filter.with": "mit Verstößen", "filter.without": "ohne Verstöße", "filter.status": "Stand",
      "filter.apply": "Suchen", "filter.reset": "Alle zeigen", "filter.count": "{n} von {total} Partien",
      "status.live": "läuft", "status.finished": "beendet", "status.abandoned": "abgebrochen",
      "status.interrupted": "unterbrochen",
      "lib.rename": "Name", "lib.rename.label": "Name dieser Partie", "lib.save": "Speichern",
      "lib.finish": "Als beendet markieren", "lib.abandon": "Als abgebrochen markieren", "lib.winner": "Sieger",
      "lib.drawn": "niemand (unentschieden)", "lib.note": "Notiz hinzufügen", "lib.note.placeholder": "Was geschah, eine Entscheidung, eine Frage für später",
      "lib.saved": "Gespeichert", "lib.interrupted.help": "Diese Partie wurde nicht beendet (der Begleiter wurde gestoppt). Trage ein, wie sie endete.",
      "notes": "Notizen", "note.label": "Eine Notiz für die Aufzeichnung", "note.save": "Notiz speichern",
      "note.placeholder": "Eine Notiz für die Aufzeichnung (eine Entscheidung, eine Frage für später)", "note.saved": "Notiz gespeichert",
      "kind.move": "Zug", "kind.violation": "Verstoß", "kind.decision": "Entscheidung", "kind.correction": "Korrektur",
      "kind.question": "Frage", "kind.phase": "Phase", "kind.camera": "Kamera", "kind.note": "Notiz",
      "cal.title": "Kamera und Kalibrierung",
      "cal.help": "Das Live-Bild mit Mattenecken, Zonen und allen gefundenen Markern. Alle vier Ecken müssen gefunden sein, bevor der Tisch gelesen werden kann.",
      "cal.checks": "Prüfungen", "cal.status": "Kamera", "cal.fps": "Bilder pro Sekunde",
      "cal.markers": "Gesehene Marker", "cal.ready": "Mattenecken gefunden", "cal.detail": "Detail",
      "cal.fit": "Sitz der Matte",
      "done": "Erledigt", "facedown": "verdeckt", "tapped": "getappt", "next": "Danach", "setup": "Vorbereitung",
      "offers.person": "Sag dem Begleiter, was die Kamera nicht sieht",
      "offers.table": "Züge, die die Kamera sieht (nur eingeben, wenn sie einen verpasst hat)",
      "offers.none": "Gerade gibt es nichts anzusagen.",
      "offers.more.one": "1 weitere Kombination", "offers.more.other": "{n} weitere Kombinationen",
      "offers.hidden.one": "1 weiterer erlaubter Zug nennt eine Karte, die nicht offen liegt (nicht gezeigt).",
      "offers.hidden.other": "{n} weitere erlaubte Züge nennen Karten, die nicht offen liegen (nicht gezeigt).",
      "entered": "Eingegeben", "question.help": "Die Kamera hat eine Änderung gesehen, die zu mehreren Zügen passt. Wähle, was wirklich geschah.",
      "question.later": "Später entscheiden", "unanswered": "Unbeantwortet: angenommen", "unanswered.assumed": "angenommen", "unsure": "Nicht sicher", "unreadable": "Im Spiegelbild der Lampe", "unidentified": "Gesehen, noch nicht erkannt",
      "unanswered.help": "Das Spiel ging weiter, bevor jemand antwortete. Die Aufzeichnung nahm die wahrscheinlichste regelgerechte Lesart; eine andere Wahl ersetzt sie.", "question.open": "Offene Frage", "question.answer": "Beantworten",
      "cal.hint.corners": "Nicht alle vier Mattenecken gefunden: Die Kamera muss die ganze Matte von oben sehen, gleichmäßig beleuchtet, ohne Hand oder Karte auf einem Eckmarker.",
      "cal.hint.lost": "Kein Bild von der Kamera: Kabel oder Stream-Adresse prüfen; die Partie bleibt erhalten und läuft weiter, sobald wieder Bilder kommen.",
      "view.table": "Tischansicht", "view.referee": "Schiedsrichteransicht", "view.turn": "Umdrehen",
      "sound.on": "Ton an", "sound.off": "Ton aus",
      "alert.violation": "Regelverstoß", "alert.question": "Frage an den Tisch",
      "alert.dismiss": "Ausblenden", "alert.more.one": "und 1 weiterer offener Verstoß",
      "alert.more.other": "und {n} weitere offene Verstöße",
      "card.close": "Schließen", "card.type": "Typ", "card.colour": "Farbe", "card.number": "Stickernummer",
      "recording.paused": "Aufzeichnung angehalten", "recording.waiting": "warten aufs Speichern", "die": "Würfel",
      "automatic.prefix": "automatisch", "assumed.prefix": "angenommen, nicht beantwortet", "demo.again": "Nochmal spielen",
      "keys": "Tasten", "keys.next": "nächste Phase", "keys.turn": "Zug beenden", "keys.undo": "rückgängig",
      "keys.redo": "wiederholen", "keys.answer": "antworten", "keys.stands": "bleibt", "keys.corrected": "korrigiert",
      "toast.phase": "Phase: {name}", "toast.undo": "Rückgängig gemacht", "toast.redo": "Wiederholt",
      "toast.stands": "Verstoß bleibt", "toast.corrected": "Verstoß korrigiert: der Zug ist zurückgenommen",
      "toast.answer": "Beantwortet: {text}", "toast.nothing": "Hier gibt es gerade nichts zu drücken",
      "question.or": "oder", "question.cards": "Karten",
      "camera.none": "Kein Kamerabild", "camera.black": "Das Kamerabild ist schwarz",
"camera.frozen": "Das Kamerabild steht still",
      "camera.mat": "Die Matte ist nicht im Bild", "camera.stopped": "Die Kamera ist angehalten",
      "camera.stalled": "Vom Kamerabild kommt nichts mehr", "camera.unread": "Das Kamerabild wird nicht gelesen",
      "camera.board": "das Brett zeigt den zuletzt gesehenen Tisch; nichts Neues wird gelesen, bis die Kamera wieder da ist.",
      "cameras.line": "Kamera {n} ({who}): sieht {sees}, Karten {cards}, Würfel {dice}",
      "cameras.dropped": "Kamera {n} ({who}): ausgefallen", "cameras.this": "dieser Laptop",
      "cameras.half": "Hälfte von {name}", "cameras.both": "die ganze Matte", "cameras.and": " und ",
      "cameras.nothing": "keinen Teil der Matte deutlich", "cameras.p1": "Spieler 1", "cameras.p2": "Spieler 2",
      "cameras.unwatched": "{half}: von keiner Kamera beobachtet"
    }
  };
  const listeners = [];
  const preset = document.documentElement.dataset.lang;
  let lang = preset || localStorage.getItem("companion.lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en");

  function t(key, values) {
    let s = (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key;
    if (values) for (const [k, v] of Object.entries(values)) s = s.split("{" + k + "}").join(String(v));
    return s;
  }
  /* The plural form of `key` for count n ("key.one" / "key.other"). */
  function tn(key, n, values) { return t(key + (Number(n) === 1 ? ".one" : ".other"), Object.assign({ n }, values || {})); }

  function apply(root) {
    (root || document).querySelectorAll("[data-i18n]").forEach(el => { el.textContent = t(el.dataset.i18n); });
    (root || document).querySelectorAll("[data-i18n-placeholder]").forEach(el => { el.placeholder = t(el.dataset.i18nPlaceholder); });
    (root || document).querySelectorAll("[data-i18n-title]").forEach(el => { el.title = t(el.dataset.i18nTitle); el.setAttribute("aria-label", t(el.dataset.i18nTitle)); });
    document.documentElement.lang = lang;
    document.querySelectorAll(".lang-switch button").forEach(b => b.classList.toggle("active", b.dataset.lang === lang));
  }

  function setLang(next) {
    lang = next === "de" ? "de" : "en";
    try { localStorage.setItem("companion.lang", lang); } catch (e) { /* a file:// page may refuse */ }
    apply();
    listeners.forEach(fn => fn(lang));
  }

  /* Messages for people: no exception class names ("SourceError: cannot open" -> "cannot open"). */
  function plain(text) { return String(text || "").replace(/\b[A-Z][A-Za-z]*(?:Error|Exception)\b:?\s*/g, "").trim(); }

  let toastTimer = null;
  function toast(message, kind) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = plain(message);
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
      let res;
      try { res = await fetch(url, { method: "POST", headers, body: JSON.stringify(body || {}) }); }
      catch (e) { toast(lang === "de" ? "Keine Verbindung zum Begleiter" : "No connection to the companion", "error"); return null; }
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
      if (!res.ok) { toast((lang === "de" && data.error_de) || data.error || res.statusText, "error"); return null; }
      return data;
    }
    return null;
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".lang-switch button").forEach(b => b.addEventListener("click", () => setLang(b.dataset.lang)));
    apply();
  });

  window.Companion = { t, tn, apply, setLang, post, toast, plain, strings: STRINGS, get lang() { return lang; }, onLang: fn => listeners.push(fn) };
})();
