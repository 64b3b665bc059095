/* Round clocks of the hall's tables, on the hall's clock (the page's own clock may be off:
   the offset comes with every state the hall sends). Shared by the hall page and the judges'. */
(function () {
  "use strict";
  let offset = 0;
  const STR = {
    en: { left: "left", over: "over time", done: "done after", none: "no clock yet", round: "Round" },
    de: { left: "übrig", over: "überzogen", done: "fertig nach", none: "noch keine Uhr", round: "Runde" }
  };
  const t = k => { const lang = (window.Companion && window.Companion.lang) || "en"; return (STR[lang] || STR.en)[k]; };
  function mmss(seconds) {
    const s = Math.floor(Math.abs(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const two = n => String(n).padStart(2, "0");
    return h ? `${h}:${two(m)}:${two(r)}` : `${two(m)}:${two(r)}`;
  }
  window.HallClock = {
    sync(now) { if (typeof now === "number" && now > 0) offset = now - Date.now() / 1000; },
    now() { return Date.now() / 1000 + offset; },
    /* {text, state: ok|warn|over|done|none, remaining} of a row's clock */
    show(clock) {
      if (!clock || !clock.started) return { text: t("none"), state: "none", remaining: null };
      if (clock.ended) return { text: `${t("done")} ${mmss(clock.ended - clock.started)}`, state: "done", remaining: clock.started + clock.length - clock.ended };
      const left = clock.started + clock.length - this.now();
      if (left < 0) return { text: `+${mmss(left)} ${t("over")}`, state: "over", remaining: left };
      return { text: `${mmss(left)} ${t("left")}`, state: left < 300 ? "warn" : "ok", remaining: left };
    },
    mmss
  };
})();
