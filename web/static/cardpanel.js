/* The card panel: hover a card on the mat (or tap it, or focus it and press Enter) to read
everything the cardset knows about it. `CardPanel.attach(svg, lookup)`: lookup(id) returns a
Promise of the card's data ({name, title, type, type_de, colours, fields}) or null. */
(function () {
  "use strict";
  const LABELS = {
    number: ["Sticker number", "Stickernummer"], set: ["Set", "Set"], cost: ["Cost", "Kosten"],
    attack: ["Attack", "Angriff"], survival: ["Survival", "Überleben"], life: ["Life", "Leben"],
    power: ["Power", "Kraft"], strength: ["Strength", "Stärke"], support: ["Support", "Unterstützung"],
    range: ["Range", "Reichweite"], symbols: ["Symbols", "Symbole"], level: ["Level", "Stufe"],
    class_change: ["Class change cost", "Klassenwechselkosten"], keywords: ["Keywords", "Schlüsselwörter"],
    text: ["Card text", "Kartentext"], text_de: ["Card text (German)", "Kartentext"],
    effects: ["Effects", "Effekte"], effect: ["Effect", "Effekt"], abilities: ["Abilities", "Fähigkeiten"],
    play_requirement: ["Play requirement", "Spielvoraussetzung"], requirements: ["Requirements", "Anforderungen"],
    home_limit: ["Home limit", "Zuhause-Limit"], boosted_power: ["Boosted power", "Kraft geboostet"],
    boosted_home_limit: ["Boosted home limit", "Zuhause-Limit geboostet"],
    boosted_keywords: ["Boosted keywords", "Schlüsselwörter geboostet"], traits: ["Traits", "Merkmale"],
    rarity: ["Rarity", "Seltenheit"], faction: ["Faction", "Fraktion"], category: ["Category", "Kategorie"],
    bonus: ["Bonus points", "Bonuspunkte"], points: ["Points", "Punkte"], dice: ["Dice", "Würfel"],
    gender: ["Gender", "Geschlecht"], weapon: ["Weapon", "Waffe"], class: ["Class", "Klasse"],
    sample: ["Made-up sample card", "Erfundene Beispielkarte"], flag: ["Flag", "Fahne"], fans: ["Fans", "Fans"]
  };
  /* structured rule data is not shown: the card's text says it in words */
  const HIDDEN = new Set(["effects", "effect", "hook", "hooks", "sample", "id"]);
  const FIRST = ["number", "set", "rarity", "cost", "level", "attack", "power", "strength", "support",
                 "survival", "life", "range", "symbols", "keywords"];
  const LAST = ["text", "text_de"];
  let lookup = () => Promise.resolve(null);
  let sticky = false, current = null;

  function label(key) {
    const l = LABELS[key];
    const de = Companion.lang === "de";
    if (l) return de ? l[1] : l[0];
    const words = key.replace(/_/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function value(v) {
    if (v === null || v === undefined) return "–";
    if (typeof v === "boolean") return v ? "✓" : "–";
    if (Array.isArray(v)) return v.map(value).join(", ");
    if (typeof v === "object") {
      if ("power" in v && "color" in v) return `${v.power} ${v.color}` + (v.except ? ` (≠ ${v.except})` : "");
      return Object.entries(v).map(([k, x]) => `${label(k)}: ${value(x)}`).join("; ");
    }
    return String(v);
  }

  function render(card) {
    const box = document.getElementById("card-panel");
    if (!box) return;
    while (box.firstChild) box.removeChild(box.firstChild);
    const head = document.createElement("div"); head.className = "cp-head";
    const name = document.createElement("div"); name.className = "cp-name"; name.textContent = card.name; head.appendChild(name);
    const close = document.createElement("button"); close.type = "button"; close.className = "cp-close"; close.textContent = "×";
    close.setAttribute("aria-label", Companion.t("card.close")); close.addEventListener("click", hide); head.appendChild(close);
    box.appendChild(head);
    if (card.title) { const t = document.createElement("div"); t.className = "cp-title"; t.textContent = card.title; box.appendChild(t); }
    const dl = document.createElement("dl"); dl.className = "cp-fields";
    const row = (k, v, swatches) => {
      const dt = document.createElement("dt"); dt.textContent = k; dl.appendChild(dt);
      const dd = document.createElement("dd");
      (swatches || []).forEach(c => { const s = document.createElement("span"); s.className = "swatch"; s.style.background = c.swatch; dd.appendChild(s); });
      dd.appendChild(document.createTextNode(v)); dl.appendChild(dd);
    };
    const type = (Companion.lang === "de" && card.type_de) || card.type || "–";
    row(Companion.t("card.type"), type.charAt(0).toUpperCase() + type.slice(1));
    if ((card.colours || []).length) row(Companion.t("card.colour"), card.colours.map(c => c[Companion.lang] || c.en).join(", "), card.colours);
    const rank = k => FIRST.includes(k) ? FIRST.indexOf(k) : LAST.includes(k) ? 100 + LAST.indexOf(k) : 50;
    Object.entries(card.fields || {}).filter(([k]) => !HIDDEN.has(k))
      .sort((a, b) => rank(a[0]) - rank(b[0]))
      .forEach(([k, v]) => row(label(k), value(v)));
    box.appendChild(dl);
    box.dataset.id = card.id || "";
  }

  function place(anchor) {
    const box = document.getElementById("card-panel");
    const r = anchor.getBoundingClientRect();
    const w = box.offsetWidth, h = box.offsetHeight, vw = document.documentElement.clientWidth, vh = window.innerHeight;
    let left = r.right + 10, top = r.top;
    if (left + w > vw - 8) left = r.left - w - 10;
    if (left < 8) left = Math.max(8, Math.min(vw - w - 8, r.left));
    if (left !== r.right + 10 && left !== r.left - w - 10) top = r.bottom + 8;
    top = Math.max(8, Math.min(vh - h - 8, top));
    box.style.left = left + "px"; box.style.top = top + "px";
  }

  async function show(node, stick) {
    const id = node.dataset.id;
    if (!id) return;
    current = node; sticky = sticky || !!stick;
    const card = await lookup(id);
    if (!card || current !== node) return;
    render(card);
    const box = document.getElementById("card-panel");
    box.hidden = false;
    place(node);
  }

  function hide() {
    const box = document.getElementById("card-panel");
    if (box) box.hidden = true;
    sticky = false; current = null;
  }

  function attach(svg, fn) {
    lookup = fn;
    const target = ev => ev.target.closest && ev.target.closest("[data-id]");
    svg.addEventListener("mouseover", ev => { const n = target(ev); if (n && !sticky && n !== current) show(n, false); });
    svg.addEventListener("mouseout", ev => { const n = target(ev); if (n && !sticky && !(ev.relatedTarget && n.contains(ev.relatedTarget))) hide(); });
    svg.addEventListener("click", ev => { const n = target(ev); if (n) { sticky = false; show(n, true); ev.stopPropagation(); } });
    svg.addEventListener("keydown", ev => { const n = target(ev); if (n && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); show(n, true); } });
    document.addEventListener("click", ev => { const box = document.getElementById("card-panel"); if (sticky && box && !box.contains(ev.target)) hide(); });
    document.addEventListener("keydown", ev => { if (ev.key === "Escape") hide(); });
  }

  window.CardPanel = { attach, hide, show };
})();
