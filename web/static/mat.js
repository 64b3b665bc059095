/* Draws the play mat as SVG in mat millimetres: zones with labels, cards, dice and tokens.

Every zone keeps a label strip along its top edge; cards are sized to fit below it, so a label
never lies on a card. Cards lying on a card (equipment) show as named tags stacked between the
host's name and its numbers, and dice on a card sit in a row above its name, so no card name
and no number is ever covered. */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const CARD_W = 63, CARD_H = 88, DIE = 13, PILE_OFF = 1.2, PILE_MAX = 4;
  const PILE = /(deck|discard|lager|hell|retreat|rest|trophies|burned|problem-deck|orbs|bonds)$/;

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  function autoLayout(table) {
    const ids = [...new Set([...table.cards.map(c => c.zone), ...table.dice.map(d => d.zone), ...table.tokens.map(t => t.zone)])].sort();
    const zones = ids.map((id, i) => ({ id, owner: id.split(".")[0], x_mm: 10 + (i % 5) * 110, y_mm: 10 + Math.floor(i / 5) * 120, w_mm: 100, h_mm: 110, label_en: id, label_de: id }));
    return { width_mm: 560, height_mm: Math.max(360, 20 + Math.ceil(ids.length / 5) * 120), zones };
  }

  function wrap(text, maxChars, maxLines) {
    const words = String(text || "").split(/\s+/).filter(Boolean);
    const lines = [];
    let line = "";
    for (const w of words) {
      if ((line + " " + w).trim().length > maxChars && line) { lines.push(line); line = w; }
      else line = (line + " " + w).trim();
    }
    if (line) lines.push(line);
    if (lines.length > maxLines) { lines.length = maxLines; lines[maxLines - 1] = lines[maxLines - 1].replace(/.{0,2}$/, "…"); }
    return lines.map(l => l.length > maxChars ? l.slice(0, maxChars - 1) + "…" : l);
  }

  function labelGeometry(z, label) {
    const fs = Math.max(3.2, Math.min(6.5, z.w_mm / 9, (z.w_mm - 6) / Math.max(1, label.length * 0.56)));
    return { fs, strip: fs + 4.2 };
  }

  function tr(card, base, lang) { return (lang === "de" && card[base + "_de"]) || card[base] || ""; }

  /* The hover text of a card: name, title, type, colour and numbers. */
  function cardTitle(card, lang) {
    const colours = (card.colours || []).map(c => c[lang] || c.en).join(", ");
    return [card.name + (card.title ? ", " + card.title : ""), tr(card, "type", lang), colours, tr(card, "stats", lang),
            card.tapped ? Companion.t("tapped") : ""].filter(Boolean).join(" · ");
  }

  function drawUnreadable(g, card, x, y, w, h) {
    const group = el("g", { class: "card-g unreadable", "data-zone": card.zone }, g);
    el("rect", { x: x + 0.5, y: y + 0.5, width: w - 1, height: h - 1, rx: 2.5, class: "unreadable-card" }, group);
    el("text", { x: x + w / 2, y: y + h / 2 + 5, "text-anchor": "middle", "font-size": Math.min(w, h) * 0.45, class: "unreadable-mark" }, group).textContent = "?";
  }

  function drawCard(g, card, x, y, w, h, opts) {
    const cx = x + w / 2, cy = y + h / 2;
    const group = el("g", {
      class: "card-g" + (card.face_up ? "" : " back") + (card.tapped ? " tapped" : "") + (opts.highlight.has(card.uid) ? " flagged" : ""),
      "data-uid": card.uid, "data-zone": card.zone, "data-name": card.name || "", "data-id": card.face_up ? (card.id || "") : null,
      tabindex: card.face_up && card.id ? 0 : null, role: card.face_up && card.id ? "button" : null,
      // tapped: tilted, not turned 90 degrees, so that the name stays readable
      transform: card.tapped ? `rotate(12 ${cx} ${cy})` : null
    }, g);
    el("title", {}, group).textContent = card.face_up ? cardTitle(card, opts.lang) : Companion.t("facedown");
    el("rect", { x, y, width: w, height: h, rx: Math.min(w, h) * 0.06, class: "card-body" }, group);
    if (!card.face_up) {
      el("rect", { x: x + w * 0.1, y: y + h * 0.08, width: w * 0.8, height: h * 0.84, rx: w * 0.04, class: "card-back-inner" }, group);
      el("circle", { cx, cy, r: Math.min(w, h) * 0.18, class: "card-back-seal" }, group);
      return { group, nameBottom: y + h * 0.3, statsTop: y + h * 0.8 };
    }
    const tile = w > h * 0.8;  // a slot wider than a card: drawn as a tile, fewer name lines
    const bandH = Math.min(h * 0.08, 5);
    const band = el("rect", { x: x + w * 0.06, y: y + h * 0.04, width: w * 0.88, height: bandH, rx: 1.5, class: "card-band" }, group);
    band.dataset.type = card.type || "";
    const colours = card.colours || [];
    if (colours.length) {  // the card's colour(s) as the band, so a blue friend reads blue
      band.setAttribute("style", `fill:${colours[0].swatch}`);
      if (colours.length > 1) el("rect", { x: x + w * 0.5, y: y + h * 0.04, width: w * 0.44, height: bandH, rx: 1.5, style: `fill:${colours[1].swatch}` }, group);
    }
    if (card.tapped) el("text", { x: x + w * 0.9, y: y + h * 0.04 + bandH * 0.9, class: "card-tapped", "font-size": bandH * 1.1, "text-anchor": "end" }, group).textContent = "↻";
    const name = card.name || card.id || "?";
    const longest = Math.max(...name.split(/\s+/).map(s => s.length), 1);
    const fs = Math.max(3.2, Math.min(w * 0.13, h * 0.17, (w * 0.92) / (longest * 0.58)));
    const lines = wrap(name, Math.max(6, Math.floor((w * 0.92) / (fs * 0.56))), tile ? 2 : 4);
    const diceRow = opts.diceOn[card.uid] ? opts.dieSize(w, h) + 1 : 0;
    const top = y + h * 0.04 + bandH + 1 + diceRow + fs * 0.9;
    const text = el("text", { x: cx, y: top, class: "card-name", "font-size": fs, "text-anchor": "middle" }, group);
    lines.forEach((line, i) => { el("tspan", { x: cx, dy: i === 0 ? 0 : fs * 1.12 }, text).textContent = line; });
    let nameBottom = top + (lines.length - 1) * fs * 1.12 + fs * 0.25;
    if (card.title && !tile) {  // "Marth, Altean Prince": three Marths differ by their title
      const tfs = Math.max(2.6, fs * 0.62);
      const tl = wrap(card.title, Math.max(6, Math.floor((w * 0.92) / (tfs * 0.55))), 2);
      const t2 = el("text", { x: cx, y: top + lines.length * fs * 1.12 + tfs * 0.4, class: "card-title", "font-size": tfs, "text-anchor": "middle" }, group);
      tl.forEach((line, i) => { el("tspan", { x: cx, dy: i === 0 ? 0 : tfs * 1.15 }, t2).textContent = line; });
      nameBottom = top + lines.length * fs * 1.12 + tfs * 0.4 + (tl.length - 1) * tfs * 1.15 + tfs * 0.25;
    }
    const small = Math.min(w * 0.1, h * 0.1);
    const stats = tr(card, "stats", opts.lang);
    const metaFs = small * 0.85;
    let statsTop = y + h - h * 0.045 - metaFs * 0.85;  // no numbers: the type line is the floor
    if (stats) {
      const sfs = Math.min(small, (w * 0.9) / (stats.length * 0.6));
      el("text", { x: cx, y: y + h * 0.84, class: "card-stats", "font-size": sfs, "text-anchor": "middle" }, group).textContent = stats;
      statsTop = y + h * 0.84 - sfs * 1.1;  // the letters' full height, accents included
    }
    const meta = el("text", { x: cx, y: y + h - h * 0.045, class: "card-meta", "font-size": metaFs, "text-anchor": "middle" }, group);
    meta.textContent = tr(card, "type", opts.lang);
    return { group, nameBottom, statsTop };
  }

  /* The tags of the cards lying on `host`, stacked upwards from just above its numbers; with
  many tags on a small card they grow thinner, and only past a readable minimum reach up
  over the host's title, never down over its numbers. */
  function drawAttachedTags(g, host, cards, opts) {
    const gap = 0.6, floor = host.statsTop - 0.6;
    const room = Math.max(0, floor - host.nameBottom);
    const fs = Math.max(2.4, Math.min(host.w * 0.085, 5, (room - (cards.length - 1) * gap) / cards.length / 1.6));
    cards.forEach((card, i) => drawAttached(g, card, host, floor - (i + 1) * fs * 1.6 - i * gap, fs, opts));
  }

  function drawAttached(g, card, host, y, fs, opts) {
    const hh = fs * 1.6, ww = host.w * 0.9;
    const x = host.x + host.w * 0.05;
    const group = el("g", {
      class: "card-g attached" + (card.face_up ? "" : " back") + (opts.highlight.has(card.uid) ? " flagged" : ""),
      "data-uid": card.uid, "data-zone": card.zone, "data-name": card.name || "", "data-on": card.on,
      transform: host.transform  // a tapped host is tilted: its tags tilt with it
    }, g);
    el("title", {}, group).textContent = card.face_up ? cardTitle(card, opts.lang) : Companion.t("facedown");
    if (card.face_up && card.id) { group.setAttribute("data-id", card.id); group.setAttribute("tabindex", 0); group.setAttribute("role", "button"); }
    el("rect", { x, y, width: ww, height: hh, rx: 1.2, class: "attached-body" }, group);
    const label = card.face_up ? "+ " + (card.name || card.id) : "+ " + Companion.t("facedown");
    const text = el("text", { x: x + ww / 2, y: y + hh * 0.72, class: "attached-name", "font-size": fs, "text-anchor": "middle" }, group);
    fitText(text, label, ww - fs * 0.6, fs);
  }

  /* Sets `label` into `text` so that it fits `width`: measured where the mat is on screen (a
  little smaller letters first, then cut with "…"), estimated from the letter count where not. */
  function fitText(text, label, width, fs) {
    text.textContent = label;
    const measured = () => { try { return text.getComputedTextLength(); } catch (e) { return 0; } };
    if (!measured()) {  // not laid out (hidden mat): a safe estimate
      const maxChars = Math.max(4, Math.floor(width / (fs * 0.62)));
      if (label.length > maxChars) text.textContent = label.slice(0, maxChars - 1) + "…";
      return;
    }
    if (measured() > width) text.setAttribute("font-size", Math.max(fs * 0.82, fs * width / measured()));
    for (let n = label.length - 1; measured() > width && n > 3; n--) text.textContent = label.slice(0, n) + "…";
  }

  function drawDie(g, die, x, y, size, transform) {
    const kind = (die.die.split(".")[1] || "w")[0];
    const group = el("g", { class: "die-g die-" + kind, "data-die": die.die, "data-value": die.value, transform }, g);
    const colour = (Companion.lang === "de" ? die.colour_de : die.colour_en) || "";
    el("title", {}, group).textContent = `${colour ? colour + " " : ""}${Companion.t("die")}: ${die.value}`;
    el("rect", { x, y, width: size, height: size, rx: size * 0.22, class: "die-body" }, group);
    el("text", { x: x + size / 2, y: y + size * 0.72, class: "die-value", "font-size": size * 0.62, "text-anchor": "middle" }, group).textContent = die.value;
  }

  function drawFlag(g, token, x, y, size, transform) {
    const group = el("g", { class: "token-g", "data-token": token.token, transform }, g);
    el("title", {}, group).textContent = token.token;
    el("line", { x1: x, y1: y, x2: x, y2: y + size, class: "flag-pole" }, group);
    el("path", { d: `M ${x} ${y} L ${x + size * 0.8} ${y + size * 0.22} L ${x} ${y + size * 0.44} Z`, class: "flag-cloth" }, group);
  }

  /* Where the cards of one zone go: [{card, x, y, w, h}] inside the zone, below its label. */
  function place(z, cards, CW, CH, strip) {
    const inner = { x: z.x_mm + 2, y: z.y_mm + strip, w: z.w_mm - 4, h: z.h_mm - strip - 1.5 };
    const pile = z.kind ? z.kind === "pile" : PILE.test(z.id);
    const out = [];
    if (pile) {
      const off = Math.min(cards.length - 1, PILE_MAX) * PILE_OFF;
      const s = Math.min(1, (inner.h - off) / CH, (inner.w - off) / CW);
      let w = CW * s, h = CH * s;
      if (s < 0.75) { h = inner.h - off; w = Math.min(CW, inner.w - off, h * 1.35); }  // low pile: a tile
      const x0 = inner.x + (inner.w - w - off) / 2, y0 = inner.y + off + (inner.h - h - off) / 2;
      cards.forEach((c, i) => out.push({ card: c, x: x0 + Math.min(i, PILE_MAX) * PILE_OFF, y: y0 - Math.min(i, PILE_MAX) * PILE_OFF, w, h }));
      return { out, pile: true };
    }
    if (cards.length === 1 && inner.w > inner.h * (CW / CH) * 1.05 && z.kind === "slot") {
      const w = Math.min(inner.w, inner.h * 1.5), h = inner.h;
      out.push({ card: cards[0], x: inner.x + (inner.w - w) / 2, y: inner.y, w, h });
      return { out, pile: false };
    }
    // a row lower than a card: cards become tiles as high as the row (names stay large)
    let s = Math.min(1, inner.h / CH, inner.w / CW);
    let w = CW * s, h = CH * s;
    if (s < 0.75) { h = inner.h; w = Math.min(CW, inner.w, h * 1.35); }
    const gap = 2.5, tilt = 1.12;
    const slotOf = c => (c.tapped ? tilt : 1);
    const units = cards.reduce((sum, c) => sum + slotOf(c), 0);
    const fit = (inner.w - (cards.length - 1) * gap) / units;
    if (fit < w) { const k = Math.max(fit, w * 0.55) / w; w *= k; if (s >= 0.75) h *= k; }
    const total = cards.reduce((sum, c) => sum + slotOf(c) * w, 0) + (cards.length - 1) * gap;
    const squeeze = total > inner.w && cards.length > 1 ? (total - inner.w) / (cards.length - 1) : 0;
    let x = inner.x + (inner.w - Math.min(total, inner.w)) / 2;
    const y = inner.y + (inner.h - h) / 2;
    cards.forEach(c => {
      const sw = slotOf(c) * w;
      out.push({ card: c, x: x + (sw - w) / 2, y, w, h });
      x += sw + gap - squeeze;
    });
    return { out, pile: false };
  }

  function render(svg, layout, table, opts) {
    opts = Object.assign({ lang: "en", highlight: new Set(), highlightZones: new Set() }, opts || {});
    table = table || { cards: [], dice: [], tokens: [] };
    layout = layout || autoLayout(table);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", `0 0 ${layout.width_mm} ${layout.height_mm}`);
    el("rect", { x: 0, y: 0, width: layout.width_mm, height: layout.height_mm, rx: 8, class: "mat-bg" }, svg);
    const zoneById = {}, strips = {};
    const zonesG = el("g", { class: "zones" }, svg);
    const labelsG = el("g", { class: "labels" }, svg);
    const itemsG = el("g", { class: "items" }, svg);
    for (const z of layout.zones) {
      zoneById[z.id] = z;
      const zg = el("g", { class: "zone owner-" + z.owner + (opts.highlightZones.has(z.id) ? " flagged" : ""), "data-zone": z.id }, zonesG);
      el("rect", { x: z.x_mm, y: z.y_mm, width: z.w_mm, height: z.h_mm, rx: 3, class: "zone-rect" }, zg);
      const label = (opts.lang === "de" ? z.label_de : z.label_en) || z.id;
      const { fs, strip } = labelGeometry(z, label);
      strips[z.id] = strip;
      const lg = el("g", { class: "zone-label-g", "data-zone": z.id }, labelsG);
      el("rect", { x: z.x_mm + 1.5, y: z.y_mm + 1.5, width: Math.min(z.w_mm - 3, label.length * fs * 0.56 + 3), height: fs + 2.4, rx: 1.6, class: "zone-label-bg" }, lg);
      el("text", { x: z.x_mm + 3, y: z.y_mm + 2.6 + fs * 0.85, class: "zone-label", "font-size": fs }, lg).textContent = label;
    }
    const CW = layout.card_w_mm || CARD_W, CH = layout.card_h_mm || CARD_H;
    const hostIds = new Set(table.cards.map(c => c.uid));
    const diceOn = {};
    for (const d of table.dice) if (d.on && hostIds.has(d.on)) diceOn[d.on] = (diceOn[d.on] || 0) + 1;
    opts.diceOn = diceOn;
    opts.dieSize = (w, h) => Math.min(DIE, w * 0.24, h * 0.24);
    const hosts = {};
    const byZone = {};
    for (const c of table.cards) {
      if (c.on && hostIds.has(c.on)) continue;
      (byZone[c.zone] = byZone[c.zone] || []).push(c);
    }
    // a card the camera sees under the lamp's reflection but cannot read: a dashed "?" card
    (opts.unreadable || []).forEach((u, i) => {
      if (u.card || !zoneById[u.zone]) return;
      (byZone[u.zone] = byZone[u.zone] || []).push({ uid: "unreadable-" + i, zone: u.zone, unreadable: true, x_mm: 1e9 });
    });
    for (const [zoneId, cards] of Object.entries(byZone)) {
      const z = zoneById[zoneId];
      if (!z) continue;
      cards.sort((a, b) => (a.x_mm ?? 0) - (b.x_mm ?? 0) || a.uid.localeCompare(b.uid));
      const { out, pile } = place(z, cards, CW, CH, strips[zoneId]);
      for (const p of out) {
        if (p.card.unreadable) { drawUnreadable(itemsG, p.card, p.x, p.y, p.w, p.h); continue; }
        const drawn = drawCard(itemsG, p.card, p.x, p.y, p.w, p.h, opts);
        hosts[p.card.uid] = { x: p.x, y: p.y, w: p.w, h: p.h, dice: 0, attached: [], nameBottom: drawn.nameBottom,
                              statsTop: drawn.statsTop, transform: drawn.group.getAttribute("transform") };
      }
      if (pile && out.length > 1) {
        const top = out[out.length - 1];
        const badge = el("g", { class: "pile-count" }, itemsG);
        const bx = top.x + top.w - 2, by = top.y + top.h - 2;
        el("circle", { cx: bx, cy: by, r: 4.8 }, badge);
        el("text", { x: bx, y: by + 1.7, "text-anchor": "middle", "font-size": 4.8 }, badge).textContent = out.length;
      }
    }
    const occupied = new Set([...table.cards.map(c => c.zone), ...table.dice.filter(d => d.on).map(d => d.zone)]);
    labelsG.querySelectorAll(".zone-label-g").forEach(g => g.classList.toggle("occupied", occupied.has(g.dataset.zone)));
    for (const c of table.cards) if (c.on && hosts[c.on]) hosts[c.on].attached.push(c);
    for (const host of Object.values(hosts)) if (host.attached.length) drawAttachedTags(itemsG, host, host.attached, opts);
    const zoneDice = {};
    for (const d of table.dice) {
      if (d.on && hosts[d.on]) {
        const host = hosts[d.on];
        const size = opts.dieSize(host.w, host.h);
        const y0 = host.y + host.h * 0.04 + Math.min(host.h * 0.08, 5) + 0.5;
        drawDie(itemsG, d, host.x + host.w - size - 1.5 - host.dice * (size + 1), y0, size, host.transform);  // tilted with a tapped host
        host.dice++;
      } else if (zoneById[d.zone]) {
        const z = zoneById[d.zone];
        const n = zoneDice[d.zone] = (zoneDice[d.zone] || 0) + 1;
        const strip = strips[d.zone];
        const size = Math.max(4, Math.min(DIE, (z.h_mm - strip - 2) * 0.9));
        const perRow = Math.max(1, Math.floor((z.w_mm - 4) / (size + 2)));
        drawDie(itemsG, d, z.x_mm + 3 + ((n - 1) % perRow) * (size + 2), z.y_mm + strip + Math.floor((n - 1) / perRow) * (size + 2), size);
      }
    }
    for (const t of table.tokens) {
      if (t.on && hosts[t.on]) { const host = hosts[t.on]; drawFlag(itemsG, t, host.x + host.w - 14, host.y + host.h * 0.45, 12, host.transform); }
      else if (zoneById[t.zone]) { const z = zoneById[t.zone]; drawFlag(itemsG, t, z.x_mm + z.w_mm - 14, z.y_mm + strips[t.zone], 12); }
    }
  }

  window.Mat = { render, cardTitle };
})();
