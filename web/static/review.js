/* The review of one recorded game (the review page and the exported HTML file): step through
the timeline, jump between violations, play it, link to a step; the mat, the camera keyframe
and the step's words follow. The address always names the step shown (#step=<seq>). */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  const data = JSON.parse($("review-data").textContent);
  const steps = data.steps;
  const C = () => window.Companion;
  let index = 0;
  let timer = null;

  function playerName(p) { return p === "p1" ? data.header.players[0] : p === "p2" ? data.header.players[1] : (p || "–"); }
  function txt(step) { return step["text_" + C().lang] || step.text_en; }
  function phaseName(id) {
    const groups = (data.layout && data.layout.phases) || {};
    const p = [...(groups.setup || []), ...(groups.turn || [])].find(x => x.id === id);
    return p ? (p["name_" + C().lang] || p.name_en) : (id || "");
  }
  function scoresText(st) {
    const sc = st.scores || {};
    return Object.keys(sc).sort().map(p => `${playerName(p)} ${sc[p]}`).join(" · ");
  }
  /* A rule reference in the page's language, as the server words it, else from the raw one. */
  function ruleOf(v) {
    const said = v && v["rule_" + C().lang];
    return said ? said.charAt(0).toUpperCase() + said.slice(1) : ruleWords(v && v.rule);
  }
  function ruleWords(rule) {
    const name = data.name || "";
    if (rule && C().lang === "de") rule = rule.replace(/^official (\S+) rules/, "offizielle $1-Regeln");
    if (!rule || !name || !rule.startsWith(name)) return rule || "";
    let rest = rule.slice(name.length).replace(/^[ ,]+/, "");
    const m = rest.match(/^(rules|schlachtplan|regeln|spielregel), (.*)$/i);
    if (m) rest = m[2];
    return rest ? `${C().t("rulebook")}: ${rest}` : rule;
  }
  function make(tag, cls, text, parent) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = text;
    if (parent) parent.appendChild(n);
    return n;
  }

  function buildTimeline() {
    const list = $("timeline");
    while (list.firstChild) list.removeChild(list.firstChild);
    let lastTurn = null;
    steps.forEach((s, i) => {
      const st = s.payload.state || {};
      if (st.turn !== undefined && st.active) {
        const key = st.turn > 0 ? `${st.turn}/${st.active}` : "setup";
        if (key !== lastTurn) {
          lastTurn = key;
          make("li", "tl-turn " + st.active, st.turn > 0 ? `${C().t("turn")} ${st.turn} · ${playerName(st.active)}` : C().t("setup"), list);
        }
      }
      const item = make("li", `tl-item kind-${s.kind}` + (s.on_main_line === false ? " off-line" : "") + (s.payload.legal === false ? " illegal" : ""), null, list);
      item.dataset.index = i; item.dataset.seq = s.seq;
      make("span", "tl-kind", C().t("kind." + s.kind), item);
      make("span", "tl-text", txt(s), item);
      if (s.kind === "violation") {
        make("span", "badge " + (s.decision === "corrected" ? "ok" : s.decision === "stands" ? "warn" : "danger"), C().t("decision." + (s.decision || "open")), item);
      }
      item.addEventListener("click", () => { stop(); show(i); });
    });
  }

  function keyframeSrc(seq) {
    if (data.keyframes) return data.keyframes[String(seq)] || null;
    return `/api/games/${data.header.id}/keyframes/${seq}.jpg`;
  }

  function show(i, fromHash) {
    if (!steps.length) return;
    index = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[index];
    $("scrub").value = index;
    $("step-index").textContent = index + 1;
    document.body.dataset.step = s.seq;
    const vCards = s.kind === "violation" ? new Set(s.payload.cards || []) : new Set();
    const vZones = s.kind === "violation" ? new Set(s.payload.zones || []) : new Set();
    Mat.render($("mat"), data.layout, s.table, { lang: C().lang, highlight: vCards, highlightZones: vZones });
    const src = s.keyframe === null || s.keyframe === undefined ? null : keyframeSrc(s.keyframe);
    $("keyframe-box").hidden = !src;
    $("no-keyframe").hidden = !!src;
    if (src && $("keyframe").getAttribute("src") !== src) $("keyframe").src = src;
    const card = $("step-card");
    while (card.firstChild) card.removeChild(card.firstChild);
    const head = make("div", "step-head", null, card);
    make("span", "tl-kind kind-" + s.kind, C().t("kind." + s.kind), head);
    make("span", "muted", `${C().t("review.step")} ${index + 1} · ${C().t("source." + s.source)}`, head);
    make("p", "step-text", txt(s), card).id = "step-text";
    if (s.kind === "violation") {
      make("p", "v-rule", [ruleOf(s.payload), C().t("decision." + (s.decision || "open"))].filter(Boolean).join(" · "), card);
    }
    if (s.on_main_line === false) make("p", "muted", C().t("review.offline"), card);
    const st = s.payload.state || {};
    if (st.phase || st.active) {
      make("p", "muted", `${C().t("turn")} ${st.turn ?? "–"} · ${playerName(st.active)} · ${phaseName(st.phase) || st.phase_name || ""}` + (st.scores ? ` · ${C().t("scores")}: ${scoresText(st)}` : ""), card);
    }
    document.querySelectorAll(".tl-item").forEach(n => n.classList.toggle("current", Number(n.dataset.index) === index));
    const cur = document.querySelector(".tl-item.current");
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: "nearest" });
    if (!fromHash) {
      try { history.replaceState(null, "", `#step=${s.seq}`); } catch (e) { /* a file:// page may refuse */ }
    }
  }

  function fromHash() {
    const m = /step=(\d+)/.exec(location.hash || "");
    if (!m) return 0;
    const at = steps.findIndex(s => s.seq === Number(m[1]));
    return at >= 0 ? at : 0;
  }

  function violationFrom(start, dir) {
    for (let i = start + dir; i >= 0 && i < steps.length; i += dir) if (steps[i].kind === "violation") return i;
    return -1;
  }

  function setPlaying(on) {
    $("play").dataset.playing = on ? "yes" : "no";
    $("play-label").dataset.i18n = on ? "review.pause" : "review.play";
    $("play-label").textContent = C().t($("play-label").dataset.i18n);
    $("play").firstChild.textContent = on ? "❚❚ " : "▶ ";
  }
  function stop() { if (timer) clearInterval(timer); timer = null; setPlaying(false); }
  function play() {
    if (timer) { stop(); return; }
    if (index >= steps.length - 1) show(0);
    setPlaying(true);
    timer = setInterval(() => { if (index >= steps.length - 1) stop(); else show(index + 1); }, Number($("speed").value));
  }

  function renderOutcome() {
    const out = data.header.outcome, box = $("review-outcome");
    box.hidden = !out;
    if (!out) return;
    if (out.abandoned) { box.textContent = C().t("status.abandoned"); return; }
    const reason = out["reason_" + C().lang] || out.reason_en || out.reason || "";
    box.textContent = `${C().t("gameover")}: ${out.winner ? playerName(out.winner) + " " + C().t("winner") : C().t("draw")}` + (reason ? ` · ${reason}` : "");
  }

  function renderNotes() {
    const list = $("notes-list");
    while (list.firstChild) list.removeChild(list.firstChild);
    (data.header.notes || []).forEach(n => make("li", "", n[C().lang] || n.en, list));
    if (!(data.header.notes || []).length && data.static) $("game-tools").hidden = true;
  }

  function wireForms() {
    const id = data.header.id;
    const note = $("note-form"), title = $("title-form"), status = $("status-form");
    if (note) note.addEventListener("submit", ev => {
      ev.preventDefault();
      const text = $("note-text").value.trim();
      if (!text) return;
      C().post(`/api/games/${id}/notes`, { text }).then(r => {
        if (!r) return;
        data.header.notes = [...(data.header.notes || []), { en: text, de: text }];
        $("note-text").value = ""; renderNotes(); C().toast(C().t("lib.saved"));
      });
    });
    if (title) title.addEventListener("submit", ev => {
      ev.preventDefault();
      C().post(`/api/games/${id}/title`, { title: $("title-text").value }).then(r => {
        if (!r) return;
        data.header.title = r.title; $("game-title").textContent = r.title || data.name; C().toast(C().t("lib.saved"));
      });
    });
    if (status) {
      status.addEventListener("submit", ev => {
        ev.preventDefault();
        C().post(`/api/games/${id}/status`, { status: "finished", winner: $("winner").value || null }).then(r => { if (r) location.reload(); });
      });
      $("abandon").addEventListener("click", () => C().post(`/api/games/${id}/status`, { status: "abandoned" }).then(r => { if (r) location.reload(); }));
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    buildTimeline();
    $("scrub").addEventListener("input", e => { stop(); show(Number(e.target.value)); });
    $("prev").addEventListener("click", () => { stop(); show(index - 1); });
    $("next").addEventListener("click", () => { stop(); show(index + 1); });
    $("first").addEventListener("click", () => { stop(); show(0); });
    $("last").addEventListener("click", () => { stop(); show(steps.length - 1); });
    $("play").addEventListener("click", play);
    $("speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
    $("next-violation").addEventListener("click", () => {
      stop();
      const at = violationFrom(index, 1), first = violationFrom(-1, 1);
      if (at >= 0) show(at); else if (first >= 0) show(first);
    });
    $("prev-violation").addEventListener("click", () => {
      stop();
      const at = violationFrom(index, -1), last = violationFrom(steps.length, -1);
      if (at >= 0) show(at); else if (last >= 0) show(last);
    });
    $("link").addEventListener("click", () => {
      const url = location.href.split("#")[0] + `#step=${steps[index] ? steps[index].seq : 0}`;
      const done = () => C().toast(C().t("review.linked") + ": " + url);
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, done); else done();
    });
    $("keyframe").addEventListener("click", () => { $("keyframe-zoom-img").src = $("keyframe").src; $("keyframe-zoom").hidden = false; });
    $("keyframe-zoom").addEventListener("click", () => { $("keyframe-zoom").hidden = true; });
    window.addEventListener("hashchange", () => show(fromHash(), true));
    document.addEventListener("keydown", e => {
      if (["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) && e.target.type !== "range") return;
      if (e.key === "ArrowLeft") { stop(); show(index - 1); }
      if (e.key === "ArrowRight") { stop(); show(index + 1); }
      if (e.key === " " && e.target.tagName !== "BUTTON") { e.preventDefault(); play(); }
      if (e.key === "Escape") $("keyframe-zoom").hidden = true;
    });
    CardPanel.attach($("mat"), id => Promise.resolve((data.cards || {})[id] || null));
    wireForms();
    const download = () => { if ($("download")) $("download").href = `/review/${data.header.id}/export.html?lang=${C().lang}`; };
    C().onLang(() => { buildTimeline(); show(index, true); renderOutcome(); renderNotes(); setPlaying(!!timer); download(); });
    download();
    renderOutcome();
    renderNotes();
    setPlaying(false);
    show(fromHash(), true);
  });
})();
