/* The floor judges' phone view: per table its open violations and questions with links to the
   recorded moment and the round clock; per player every violation with its decision. Follows
   the hall's live stream: any change fetches the judges' state again (at most once a second). */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  const C = () => window.Companion;
  const STR = {
    en: {
      title: "Judges", hall: "Whole hall", tables: "Tables", players: "Players",
      "tables.title": "Tables, those needing a judge first", "tables.empty": "No table has reported yet.",
      "players.title": "Violations and decisions per player", "players.empty": "No violation at any table so far.",
      violation: "Violation", question: "Question", moment: "Recorded moment", copy: "hall copy",
      ok: "nothing open", turn: "turn", round: "Round", final: "Final", results: "results in",
      playing: "still playing", allin: "every result is in: the next round can be paired",
      open: "open", stands: "stands", corrected: "corrected", by: "by", at: "at",
      total: "violations", gameover: "game over", wins: "wins", draw: "draw", unsure: "unsure reading",
      conn_online: "live", conn_offline: "offline", conn_starting: "connecting", minutes: "min rounds",
      nobody: "nobody", vs: "vs", stage_deck: "deck phase", "stage_final-deck": "before the final", stage_over: "over"
    },
    de: {
      title: "Schiedsrichter", hall: "Ganze Halle", tables: "Tische", players: "Spieler",
      "tables.title": "Tische, offene Verstöße und Fragen zuerst", "tables.empty": "Noch kein Tisch hat gemeldet.",
      "players.title": "Verstöße und Entscheidungen je Spieler", "players.empty": "Noch kein Verstoß an einem Tisch.",
      violation: "Verstoß", question: "Frage", moment: "Aufgezeichnete Stelle", copy: "Kopie der Halle",
      ok: "nichts offen", turn: "Zug", round: "Runde", final: "Finale", results: "Ergebnisse da",
      playing: "spielen noch", allin: "alle Ergebnisse da: die nächste Runde kann gepaart werden",
      open: "offen", stands: "bleibt", corrected: "korrigiert", by: "von", at: "an",
      total: "Verstöße", gameover: "Spiel vorbei", wins: "gewinnt", draw: "unentschieden", unsure: "unsicher gelesen",
      conn_online: "live", conn_offline: "getrennt", conn_starting: "verbindet", minutes: "Min. je Runde",
      nobody: "niemand", vs: "gegen", stage_deck: "Deck-Phase", "stage_final-deck": "vor dem Finale", stage_over: "vorbei"
    }
  };
  const t = k => (STR[C().lang] || STR.en)[k] || STR.en[k] || k;
  const txt = (o, base) => (o && (o[base + "_" + C().lang] || o[base + "_en"])) || "";
  let data = JSON.parse($("judge-initial").textContent);
  window.HallClock.sync(data.now);

  function el(tag, cls, text) { const n = document.createElement(tag); if (cls) n.className = cls; if (text !== undefined && text !== null) n.textContent = text; return n; }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function link(cls, text, href) { const a = el("a", cls, text); a.href = href; a.target = "_blank"; a.rel = "noopener"; return a; }
  function tableReview(url, review) { return url ? url.replace(/\/?$/, "/") + review : null; }

  function momentLinks(item, url) {
    const links = el("div", "judge-links");
    const own = tableReview(url, item.review);
    if (own) links.appendChild(link("judge-moment btn", `${t("moment")} ›`, own));
    links.appendChild(link(own ? "judge-copy" : "judge-moment btn", own ? t("copy") : `${t("moment")} ›`, item.moment));
    return links;
  }

  function clockBox(clock) {
    const shown = window.HallClock.show(clock);
    const box = el("div", "judge-clock", shown.text);
    box.dataset.state = shown.state;
    box.dataset.clock = JSON.stringify(clock || null);
    return box;
  }

  function tableCard(row) {
    const card = el("article", "judge-card" + (row.alert ? " needs" : ""));
    card.dataset.table = row.table;
    const head = el("div", "judge-card-head");
    const who = el("div", "judge-who");
    who.appendChild(el("div", "judge-table-name", row.table));
    who.appendChild(el("div", "judge-players", (row.players || []).join(" – ")));
    head.appendChild(who);
    head.appendChild(clockBox(row.clock));
    card.appendChild(head);
    (row.violations || []).forEach(v => {
      const item = el("div", "judge-item violation");
      item.dataset.seq = v.seq;
      const kind = el("div", "judge-kind", t("violation"));
      if (v.player) kind.appendChild(el("span", "judge-by", v.player));
      item.appendChild(kind);
      item.appendChild(el("div", "judge-text", txt(v, "message")));
      const more = [txt(v, "rule") || v.rule, v.unsure ? t("unsure") : ""].filter(Boolean).join(" · ");
      if (more) item.appendChild(el("div", "judge-rule", more));
      item.appendChild(momentLinks(v, row.url));
      card.appendChild(item);
    });
    if (row.question) {
      const q = row.question;
      const item = el("div", "judge-item question");
      item.dataset.seq = q.seq;
      item.appendChild(el("div", "judge-kind", t("question")));
      item.appendChild(el("div", "judge-text", txt(q, "text")));
      item.appendChild(momentLinks(q, row.url));
      card.appendChild(item);
    }
    const facts = [];
    if (row.outcome) {
      const w = row.outcome.winner === "p1" ? row.players[0] : row.outcome.winner === "p2" ? row.players[1] : null;
      facts.push(`${t("gameover")}: ${w ? w + " " + t("wins") : t("draw")}`);
    } else if (row.turn !== null && row.turn !== undefined) {
      const phase = txt(row, "phase_name") || row.phase_name;
      facts.push(`${t("turn")} ${row.turn}${phase ? " · " + phase : ""}`);
    }
    if (!row.alert) facts.unshift(t("ok"));
    card.appendChild(el("div", "judge-facts", facts.join(" · ")));
    if (row.notice) card.appendChild(el("div", "hall-notice", txt(row, "notice") || row.notice));
    return card;
  }

  function playerCard(p) {
    const box = el("details", "judge-player");
    box.dataset.player = p.name;
    if (p.counts.open) box.open = true;
    const summary = el("summary", "");
    summary.appendChild(el("span", "judge-player-name", p.name));
    const counts = el("span", "judge-counts");
    ["open", "stands", "corrected"].forEach(d => {
      if (p.counts[d]) { const c = el("span", "judge-badge " + d, `${p.counts[d]} ${t(d)}`); counts.appendChild(c); }
    });
    summary.appendChild(counts);
    box.appendChild(summary);
    const list = el("ol", "judge-history");
    p.entries.forEach(e => {
      const li = el("li", "judge-entry");
      li.dataset.decision = e.decision;
      const where = [e.round ? (e.round > 7 ? t("final") : `${t("round")} ${e.round}`) : "", e.table,
        new Date(e.time * 1000).toLocaleTimeString(C().lang === "de" ? "de-DE" : "en-GB", { hour: "2-digit", minute: "2-digit" })].filter(Boolean).join(" · ");
      const top = el("div", "judge-entry-top");
      top.appendChild(el("span", "judge-badge " + e.decision, t(e.decision)));
      top.appendChild(el("span", "judge-where", where));
      li.appendChild(top);
      li.appendChild(el("div", "judge-text", txt(e, "message")));
      const opp = (e.players || []).filter(n => n !== p.name).join(", ");
      if (e.rule || opp) li.appendChild(el("div", "judge-rule", [txt(e, "rule") || e.rule, opp ? `${t("vs")} ${opp}` : ""].filter(Boolean).join(" · ")));
      li.appendChild(momentLinks(e, e.url));
      list.appendChild(li);
    });
    box.appendChild(list);
    return box;
  }

  function roundLine() {
    const tv = data.tournament;
    const minutes = `${data.round_minutes} ${t("minutes")}`;
    if (!tv) return minutes;
    const where = tv.round > 7 ? t("final") : `${t("round")} ${tv.round}`;
    if (tv.stage !== "match" && tv.stage !== "final") return `${where} · ${t("stage_" + tv.stage)} · ${minutes}`;
    const total = (tv.matches || []).length, waiting = tv.still_playing || [];
    const state = waiting.length ? `${t("playing")}: ${waiting.join(", ")}` : t("allin");
    return `${where} · ${total - waiting.length}/${total} ${t("results")} · ${state} · ${minutes}`;
  }

  function render() {
    const tables = data.tables || [];
    const list = $("judge-table-list"); clear(list);
    tables.forEach(r => list.appendChild(tableCard(r)));
    $("judge-tables-empty").hidden = tables.length > 0;
    $("judge-open-count").textContent = String(tables.filter(r => r.alert).length);
    const players = data.players || [];
    const plist = $("judge-player-list");
    const opened = new Set([...plist.querySelectorAll("details[open]")].map(d => d.dataset.player));
    const closed = new Set([...plist.querySelectorAll("details:not([open])")].map(d => d.dataset.player));
    clear(plist);
    players.forEach(p => {
      const card = playerCard(p);
      if (opened.has(p.name)) card.open = true;
      else if (closed.has(p.name)) card.open = false;
      plist.appendChild(card);
    });
    $("judge-players-empty").hidden = players.length > 0;
    $("judge-player-count").textContent = String(players.length);
    $("judge-round").textContent = roundLine();
    const s = (data.status && data.status.nats) || "starting";
    $("hall-conn").dataset.status = s === "online" ? "ok" : s === "offline" ? "lost" : "starting";
    $("hall-conn-text").textContent = t("conn_" + (s === "online" || s === "offline" ? s : "starting"));
  }

  function tick() {
    document.querySelectorAll(".judge-clock").forEach(box => {
      const shown = window.HallClock.show(JSON.parse(box.dataset.clock || "null"));
      box.textContent = shown.text; box.dataset.state = shown.state;
    });
  }

  let fetching = false, again = false, last = 0;
  function refresh() {
    if (fetching) { again = true; return; }
    const wait = Math.max(0, 1000 - (Date.now() - last));
    fetching = true;
    setTimeout(() => {
      fetch("/hall/api/judge", { cache: "no-store" }).then(r => r.ok ? r.json() : null).then(next => {
        if (next) { data = next; window.HallClock.sync(next.now); render(); }
      }).catch(() => { /* the stream's error handler shows it */ }).finally(() => {
        fetching = false; last = Date.now();
        if (again) { again = false; refresh(); }
      });
    }, wait);
  }

  function connect() {
    const source = new EventSource("/hall/api/stream");
    ["state", "table", "tournament"].forEach(kind => source.addEventListener(kind, refresh));
    source.addEventListener("status", e => { data.status = JSON.parse(e.data); render(); });
    source.onerror = () => { data.status = { ...(data.status || {}), nats: "offline" }; render(); };
  }

  function translate() { document.querySelectorAll("[data-judge-i18n]").forEach(n => { n.textContent = t(n.dataset.judgeI18n); }); }

  document.addEventListener("DOMContentLoaded", () => {
    translate();
    C().onLang(() => { translate(); render(); });
    render();
    connect();
    setInterval(tick, 1000);
  });
})();
