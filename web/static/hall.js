/* The hall page: every table of the event, those needing a referee first; the tournament. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  const C = () => window.Companion;
  const STR = {
    en: {
      title: "Hall", judges: "Judges' phone view", table: "Table", game: "Game", players: "Players", turn: "Turn", phase: "Phase",
      score: "Score", referee: "Referee", heard: "Last event", empty: "No table has reported yet. Start each table with --hall and --table.",
      tournament: "Tournament", "tournament.none": "No tournament in this hall's library (companion tournament new ...).",
      pairings: "Pairings", standings: "Standings", player: "Player", fans: "Fans", trophies: "Trophies",
      tokens: "Fan tokens", hidden: "hidden", violation: "violation", violations: "violations", question: "question",
      ok: "ok", open: "open", live: "live page", overlay: "overlay", over: "over", round: "Round", final: "Final",
      stage_deck: "deck phase", "stage_match": "match phase", "stage_final-deck": "before the final",
      stage_final: "final", stage_over: "over", wins: "wins", tie: "a tie", ago: "s ago",
      tables: "tables", events: "events", conn_online: "stream live", conn_offline: "stream offline",
      conn_starting: "connecting", winner: "Winner", result: "no result yet", starts: "starts",
      gameover: "game over", draw: "draw", refused: "Refused messages",
      "refused.why": "Sent with a table's credentials but not counted: a forged table, another table's recording, or a replay.",
      forged: "forged", "other-table": "another table's recording", replayed: "replayed", unreadable: "unreadable", from: "from", claims: "claims",
      end_final: "won the final", end_lead: "an unbeatable lead in fans", end_tie: "a tie", end_fans: "most fans"
    },
    de: {
      title: "Halle", judges: "Ansicht für Schiedsrichter (Telefon)", table: "Tisch", game: "Spiel", players: "Spieler", turn: "Zug", phase: "Phase",
      score: "Punkte", referee: "Schiedsrichter", heard: "Letztes Ereignis", empty: "Noch kein Tisch hat gemeldet. Jeden Tisch mit --hall und --table starten.",
      tournament: "Turnier", "tournament.none": "Kein Turnier in der Bibliothek dieser Halle (companion tournament new ...).",
      pairings: "Paarungen", standings: "Stand", player: "Spieler", fans: "Fans", trophies: "Trophäen",
      tokens: "Fan-Marker", hidden: "verdeckt", violation: "Verstoß", violations: "Verstöße", question: "Frage",
      ok: "ok", open: "offen", live: "Live-Seite", overlay: "Overlay", over: "vorbei", round: "Runde", final: "Finale",
      stage_deck: "Deck-Phase", stage_match: "Match-Phase", "stage_final-deck": "vor dem Finale",
      stage_final: "Finale", stage_over: "vorbei", wins: "gewinnt", tie: "Gleichstand", ago: " s her",
      tables: "Tische", events: "Ereignisse", conn_online: "Stream live", conn_offline: "Stream getrennt",
      conn_starting: "verbindet", winner: "Sieger", result: "noch kein Ergebnis", starts: "beginnt",
      gameover: "Spiel vorbei", draw: "unentschieden", refused: "Abgewiesene Nachrichten",
      "refused.why": "Mit den Zugangsdaten eines Tisches gesendet, aber nicht gezählt: gefälschter Tisch, Aufzeichnung eines anderen Tisches oder Wiederholung.",
      forged: "gefälscht", "other-table": "Aufzeichnung eines anderen Tisches", replayed: "wiederholt", unreadable: "unlesbar", from: "von", claims: "gibt vor",
      end_final: "Finale gewonnen", end_lead: "uneinholbarer Vorsprung an Fans", end_tie: "Gleichstand", end_fans: "die meisten Fans"
    }
  };
  const t = k => (STR[C().lang] || STR.en)[k] || STR.en[k] || k;
  const txt = (o, base) => (o && (o[base + "_" + C().lang] || o[base + "_en"])) || "";

  const initial = JSON.parse($("hall-initial").textContent);
  const rows = new Map();
  let tournament = initial.tournament;
  let status = initial.status || {};
  let counts = initial.counts || {};
  let refused = (initial.refused && initial.refused.recent) || [];
  (initial.tables || []).forEach(r => rows.set(r.table, r));
  window.HallClock.sync(initial.now);

  function el(tag, cls, text) { const n = document.createElement(tag); if (cls) n.className = cls; if (text !== undefined && text !== null) n.textContent = text; return n; }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function sorted() {
    return [...rows.values()].sort((a, b) => (a.alert === b.alert ? String(a.table).localeCompare(String(b.table), undefined, { numeric: true }) : (a.alert ? -1 : 1)));
  }

  function refereeCell(row) {
    const td = el("td", "hall-ref");
    const vs = row.violations || [];
    if (vs.length) {
      td.appendChild(el("span", "badge danger", `${vs.length} ${vs.length === 1 ? t("violation") : t("violations")}`));
      td.appendChild(el("div", "hall-ref-text", txt(vs[vs.length - 1], "message")));
    }
    if (row.question) {
      td.appendChild(el("span", "badge warn", t("question")));
      td.appendChild(el("div", "hall-ref-text", txt(row.question, "text")));
    }
    if (row.outcome) {
      const out = row.outcome;
      const name = out.winner === "p1" ? row.players[0] : out.winner === "p2" ? row.players[1] : null;
      td.appendChild(el("span", "badge ok", `${t("gameover")}: ${name ? name + " " + t("wins") : t("draw")}`));
    }
    if (!vs.length && !row.question && !row.outcome) td.appendChild(el("span", "muted", t("ok")));
    if (row.notice) td.appendChild(el("div", "hall-notice", txt(row, "notice") || row.notice));
    return td;
  }

  function renderRow(row) {
    const tr = el("tr", row.alert ? "alert" : "");
    tr.dataset.table = row.table;
    tr.dataset.seq = row.seq;
    const name = el("td", "hall-name");
    name.appendChild(el("strong", "", row.table));
    const links = el("div", "hall-links small");
    if (row.url) { const a = el("a", "", t("live")); a.href = row.url; a.target = "_blank"; a.rel = "noopener"; links.appendChild(a); }
    const ov = el("a", "", t("overlay")); ov.href = `/hall/overlay/${encodeURIComponent(row.table)}`; ov.target = "_blank"; links.appendChild(ov);
    name.appendChild(links);
    const clock = el("div", "hall-clock");
    clock.dataset.clock = JSON.stringify(row.clock || null);
    name.appendChild(clock);
    tr.appendChild(name);
    tr.appendChild(el("td", "", row.game_name || row.game || "–"));
    tr.appendChild(el("td", "", (row.players || []).join(" – ")));
    tr.appendChild(el("td", "num", row.turn ?? "–"));
    const active = row.active === "p1" ? row.players[0] : row.active === "p2" ? row.players[1] : "";
    tr.appendChild(el("td", "", (txt(row, "phase_name") || row.phase_name || row.phase || "–") + (active ? ` · ${active}` : "")));
    tr.appendChild(el("td", "num", (row.scores || []).map(s => s.value).join(" : ") || "–"));
    tr.appendChild(refereeCell(row));
    const heard = el("td", "hall-heard muted small");
    heard.dataset.commit = row.commit || 0;
    tr.appendChild(heard);
    if (row.url) {
      tr.classList.add("clickable");
      tr.addEventListener("click", ev => { if (ev.target.tagName !== "A") window.open(row.url, "_blank", "noopener"); });
    }
    return tr;
  }

  function renderHeard() {
    document.querySelectorAll(".hall-clock").forEach(box => {
      const shown = window.HallClock.show(JSON.parse(box.dataset.clock || "null"));
      box.textContent = shown.text; box.dataset.state = shown.state;
    });
    const now = Date.now() / 1000;
    document.querySelectorAll(".hall-heard").forEach(td => {
      const at = Number(td.dataset.commit);
      td.textContent = at ? `${Math.max(0, Math.round(now - at))}${t("ago")}` : "–";
    });
  }

  function renderTables() {
    const body = $("hall-rows");
    clear(body);
    const list = sorted();
    list.forEach(r => body.appendChild(renderRow(r)));
    $("hall-empty").hidden = list.length > 0;
    const alerts = list.filter(r => r.alert).length;
    $("hall-summary").textContent = `${list.length} ${t("tables")} · ${alerts} ${t("open")} · ${counts.applied || 0} ${t("events")}`;
    renderHeard();
  }

  function renderTournament() {
    const tv = tournament;
    $("tournament-none").hidden = !!tv;
    $("tournament-body").hidden = !tv;
    if (!tv) return;
    const where = tv.round > 7 ? t("final") : `${t("round")} ${tv.round}${tv.level ? " (" + tv.level + ")" : ""}`;
    $("tournament-stage").textContent = `${tv.name} · ${where} · ${t("stage_" + tv.stage)}`;
    const pairings = $("pairings"); clear(pairings);
    (tv.matches || []).forEach(m => {
      const tr = el("tr", m.winner ? "done" : "");
      tr.appendChild(el("td", "muted", m.table));
      tr.appendChild(el("td", "", `${m.p1} – ${m.p2}`));
      tr.appendChild(el("td", "small", m.winner ? `${m.winner} ${t("wins")}` : `${m.starter} ${t("starts")}`));
      pairings.appendChild(tr);
    });
    const standings = $("standings"); clear(standings);
    (tv.standings || []).forEach((s, i) => {
      const tr = el("tr", "");
      tr.appendChild(el("td", "muted", String(i + 1)));
      tr.appendChild(el("td", "", s.name));
      tr.appendChild(el("td", "num", s.fans === null ? t("hidden") : String(s.fans)));
      tr.appendChild(el("td", "num", String(s.trophies)));
      tr.appendChild(el("td", "num", String(s.fan_tokens)));
      standings.appendChild(tr);
    });
    const w = $("tournament-winner");
    w.hidden = tv.stage !== "over";
    if (tv.stage === "over") w.textContent = `${t("winner")}: ${tv.winner || t("tie")} (${t("end_" + tv.end_reason)})`;
  }

  function renderRefused() {
    $("hall-refused").hidden = refused.length === 0;
    const list = $("hall-refused-list"); clear(list);
    refused.slice(-20).reverse().forEach(e => {
      const when = new Date(e.time * 1000).toLocaleTimeString(C().lang === "de" ? "de-DE" : "en-GB");
      list.appendChild(el("li", "", `${when} · ${t(e.reason)} · ${t("from")} ${e.sender}` +
        (e.claimed && e.claimed !== e.sender ? ` (${t("claims")} ${e.claimed})` : "") + ` · ${txt(e, "detail") || e.detail}`));
    });
  }

  function renderStatus() {
    const s = status.nats || "starting";
    $("hall-conn").dataset.status = s === "online" ? "ok" : s === "offline" ? "lost" : "starting";
    $("hall-conn-text").textContent = t("conn_" + (s === "online" || s === "offline" ? s : "starting"));
  }

  function translate() { document.querySelectorAll("[data-hall-i18n]").forEach(n => { n.textContent = t(n.dataset.hallI18n); }); }

  let pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; renderTables(); renderTournament(); renderStatus(); renderRefused(); });
  }

  function connect() {
    const source = new EventSource("/hall/api/stream");
    source.addEventListener("state", e => {
      const data = JSON.parse(e.data);
      rows.clear(); (data.tables || []).forEach(r => rows.set(r.table, r));
      tournament = data.tournament; status = data.status || status; counts = data.counts || counts;
      refused = (data.refused && data.refused.recent) || refused;
      window.HallClock.sync(data.now);
      schedule();
    });
    source.addEventListener("table", e => {
      const row = JSON.parse(e.data); rows.set(row.table, row); counts.applied = (counts.applied || 0) + 1; schedule();
    });
    source.addEventListener("tournament", e => { tournament = JSON.parse(e.data); schedule(); });
    source.addEventListener("status", e => { status = JSON.parse(e.data); schedule(); });
    source.addEventListener("refused", e => { refused = [...refused, JSON.parse(e.data)].slice(-200); schedule(); });
    source.onerror = () => { status = { ...status, nats: "offline" }; schedule(); };
  }

  document.addEventListener("DOMContentLoaded", () => {
    translate();
    C().onLang(() => { translate(); schedule(); });
    schedule();
    connect();
    setInterval(renderHeard, 1000);
  });
})();
