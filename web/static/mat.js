/* Draws the play mat as SVG in mat millimetres: zones with labels, cards, dice and tokens. */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const CARD_W = 63, CARD_H = 88, DIE = 13;
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

  function drawCard(g, card, x, y, w, h, opts) {
    const cx = x + w / 2, cy = y + h / 2;
    const group = el("g", {
      class: "card-g" + (card.face_up ? "" : " back") + (card.tapped ? " tapped" : "") + (opts.highlight.has(card.uid) ? " flagged" : ""),
      "data-uid": card.uid, "data-zone": card.zone, "data-name": card.name || "",
      transform: card.tapped ? `rotate(90 ${cx} ${cy})` : null
    }, g);
    el("title", {}, group).textContent = card.face_up ? `${card.name} (${card.uid})${card.tapped ? " · tapped" : ""}` : Companion.t("facedown");
    el("rect", { x, y, width: w, height: h, rx: w * 0.06, class: "card-body" }, group);
    if (!card.face_up) {
      el("rect", { x: x + w * 0.1, y: y + h * 0.08, width: w * 0.8, height: h * 0.84, rx: w * 0.04, class: "card-back-inner" }, group);
      el("circle", { cx, cy, r: w * 0.18, class: "card-back-seal" }, group);
      return group;
    }
    const band = el("rect", { x: x + w * 0.06, y: y + h * 0.05, width: w * 0.88, height: h * 0.08, rx: 1.5, class: "card-band" }, group);
    band.dataset.type = card.type || "";
    const name = card.name || card.id || "?";
    const longest = Math.max(...name.split(/\s+/).map(s => s.length), 1);
    const fs = Math.max(3.2, Math.min(w * 0.13, (w * 0.92) / (longest * 0.58)));
    const lines = wrap(name, Math.max(6, Math.floor((w * 0.92) / (fs * 0.56))), 4);
    const text = el("text", { x: cx, y: y + h * 0.28, class: "card-name", "font-size": fs, "text-anchor": "middle" }, group);
    lines.forEach((line, i) => { el("tspan", { x: cx, dy: i === 0 ? 0 : fs * 1.15 }, text).textContent = line; });
    const small = w * 0.1;
    if (card.stats) {
      const sfs = Math.min(small, (w * 0.9) / (card.stats.length * 0.6));
      el("text", { x: cx, y: y + h * 0.8, class: "card-stats", "font-size": sfs, "text-anchor": "middle" }, group).textContent = card.stats;
    }
    const meta = el("text", { x: cx, y: y + h - h * 0.07, class: "card-meta", "font-size": small * 0.9, "text-anchor": "middle" }, group);
    meta.textContent = card.type || "";
    return group;
  }

  function drawDie(g, die, x, y, size) {
    const kind = (die.die.split(".")[1] || "w")[0];
    const group = el("g", { class: "die-g die-" + kind, "data-die": die.die, "data-value": die.value }, g);
    el("title", {}, group).textContent = `${die.die}: ${die.value}`;
    el("rect", { x, y, width: size, height: size, rx: size * 0.22, class: "die-body" }, group);
    el("text", { x: x + size / 2, y: y + size * 0.72, class: "die-value", "font-size": size * 0.62, "text-anchor": "middle" }, group).textContent = die.value;
  }

  function drawFlag(g, token, x, y, size) {
    const group = el("g", { class: "token-g", "data-token": token.token }, g);
    el("title", {}, group).textContent = token.token;
    el("line", { x1: x, y1: y, x2: x, y2: y + size, class: "flag-pole" }, group);
    el("path", { d: `M ${x} ${y} L ${x + size * 0.8} ${y + size * 0.22} L ${x} ${y + size * 0.44} Z`, class: "flag-cloth" }, group);
  }

  function render(svg, layout, table, opts) {
    opts = Object.assign({ lang: "en", highlight: new Set(), highlightZones: new Set() }, opts || {});
    table = table || { cards: [], dice: [], tokens: [] };
    layout = layout || autoLayout(table);
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", `0 0 ${layout.width_mm} ${layout.height_mm}`);
    el("rect", { x: 0, y: 0, width: layout.width_mm, height: layout.height_mm, rx: 8, class: "mat-bg" }, svg);
    const zoneById = {};
    const zonesG = el("g", { class: "zones" }, svg);
    const itemsG = el("g", { class: "items" }, svg);
    const labelsG = el("g", { class: "labels" }, svg);
    for (const z of layout.zones) {
      zoneById[z.id] = z;
      const zg = el("g", { class: "zone owner-" + z.owner + (opts.highlightZones.has(z.id) ? " flagged" : ""), "data-zone": z.id }, zonesG);
      el("rect", { x: z.x_mm, y: z.y_mm, width: z.w_mm, height: z.h_mm, rx: 3, class: "zone-rect" }, zg);
      const label = (opts.lang === "de" ? z.label_de : z.label_en) || z.id;
      const fs = Math.min(6.5, Math.max(4.2, z.w_mm / 9));
      const lg = el("g", { class: "zone-label-g", "data-zone": z.id }, labelsG);
      el("rect", { x: z.x_mm + 1.5, y: z.y_mm + 1.5, width: Math.min(z.w_mm - 3, label.length * fs * 0.56 + 3), height: fs + 2.4, rx: 1.6, class: "zone-label-bg" }, lg);
      el("text", { x: z.x_mm + 3, y: z.y_mm + 2.6 + fs * 0.85, class: "zone-label", "font-size": fs }, lg).textContent = label;
    }
    const hosts = {};
    const byZone = {};
    for (const c of table.cards) {
      if (c.on && table.cards.some(o => o.uid === c.on)) continue;
      (byZone[c.zone] = byZone[c.zone] || []).push(c);
    }
    const CW = layout.card_w_mm || CARD_W, CH = layout.card_h_mm || CARD_H;
    for (const [zoneId, cards] of Object.entries(byZone)) {
      const z = zoneById[zoneId];
      if (!z) continue;
      cards.sort((a, b) => (a.x_mm ?? 0) - (b.x_mm ?? 0) || a.uid.localeCompare(b.uid));
      const pile = z.kind ? z.kind === "pile" : PILE.test(zoneId);
      const scale = Math.min(1, Math.max(0.45, (z.kind ? 1 : Math.min((z.h_mm - 10) / CH, (z.w_mm - 4) / CW))));
      const w = CW * scale, h = CH * scale;
      const cx = z.x_mm + z.w_mm / 2, cy = z.y_mm + z.h_mm / 2;
      if (pile) {
        cards.forEach((c, i) => {
          const off = Math.min(i, 4) * 1.2;
          const px = cx - w / 2 + off, py = cy - h / 2 - off;
          drawCard(itemsG, c, px, py, w, h, opts);
          hosts[c.uid] = { x: px, y: py, w, h, dice: 0 };
        });
        if (cards.length > 1) {
          const badge = el("g", { class: "pile-count" }, itemsG);
          const bx = cx + w / 2 + Math.min(cards.length - 1, 4) * 1.2 - 2, by = cy - h / 2 - Math.min(cards.length - 1, 4) * 1.2 + 2;
          el("circle", { cx: bx, cy: by, r: 4.8 }, badge);
          el("text", { x: bx, y: by + 1.7, "text-anchor": "middle", "font-size": 4.8 }, badge).textContent = cards.length;
        }
        continue;
      }
      const slot = c => (c.tapped ? h : w);
      const gap = 2.5;
      const total = cards.reduce((sum, c) => sum + slot(c), 0) + (cards.length - 1) * gap;
      const room = Math.max(z.w_mm, w);
      const squeeze = total > room && cards.length > 1 ? (total - room) / (cards.length - 1) : 0;
      let x = cx - Math.min(total, room) / 2;
      cards.forEach(c => {
        const sw = slot(c);
        const px = x + (sw - w) / 2, py = cy - h / 2;
        drawCard(itemsG, c, px, py, w, h, opts);
        hosts[c.uid] = { x: px, y: py, w, h, dice: 0 };
        x += sw + gap - squeeze;
      });
    }
    const occupied = new Set([...table.cards.map(c => c.zone), ...table.dice.filter(d => d.on).map(d => d.zone)]);
    labelsG.querySelectorAll(".zone-label-g").forEach(g => g.classList.toggle("occupied", occupied.has(g.dataset.zone)));
    for (const c of table.cards) {
      if (!(c.on && hosts[c.on])) continue;
      const host = hosts[c.on];
      const w = host.w * 0.8, h = host.h * 0.8;
      drawCard(itemsG, c, host.x + host.w * 0.15, host.y + host.h * 0.15, w, h, opts);
    }
    const zoneDice = {};
    for (const d of table.dice) {
      if (d.on && hosts[d.on]) {
        const host = hosts[d.on];
        const size = Math.min(DIE, host.w * 0.3);
        drawDie(itemsG, d, host.x + host.w - size - 1.5 - (host.dice % 3) * (size + 1), host.y + host.h - size - 1.5 - Math.floor(host.dice / 3) * (size + 1), size);
        host.dice++;
      } else if (zoneById[d.zone]) {
        const z = zoneById[d.zone];
        const n = zoneDice[d.zone] = (zoneDice[d.zone] || 0) + 1;
        const perRow = Math.max(1, Math.floor((z.w_mm - 4) / (DIE + 2)));
        const size = Math.min(DIE, (z.h_mm - 10) * 0.9);
        drawDie(itemsG, d, z.x_mm + 3 + ((n - 1) % perRow) * (size + 2), z.y_mm + 9 + Math.floor((n - 1) / perRow) * (size + 2), size);
      }
    }
    for (const t of table.tokens) {
      if (t.on && hosts[t.on]) { const host = hosts[t.on]; drawFlag(itemsG, t, host.x + host.w - 18, host.y + host.h * 0.3, 16); }
      else if (zoneById[t.zone]) { const z = zoneById[t.zone]; drawFlag(itemsG, t, z.x_mm + z.w_mm - 14, z.y_mm + 4, 12); }
    }
  }

  window.Mat = { render };
})();
