// SandTable Playground: a small Discord-like client for the local Discord stand-in.
// Plain JavaScript, no build step, no dependency. The server's JSON API is described in
// the playground package's doc.go.
"use strict";

(function () {
  const $ = (sel, root) => (root || document).querySelector(sel);

  // ---- state ----
  const S = {
    me: null,           // user ID we act as
    channel: null,      // open channel ID
    view: null,         // last /api/view answer
    version: 0,
    msgCache: new Map(), // message ID -> {key, el}
    dismissed: new Set(), // ephemeral messages dismissed (message IDs are unique across users)
    // ephemeralAfter is the horizon of the ephemeral messages this page shows: "now" until the
    // first view names the moment the page was loaded. As in Discord, an ephemeral message
    // lives in the page only: a reload no longer shows the ones it had.
    ephemeralAfter: "now",
    cmd: null,          // the command being composed: {path, def, options: [{def, value, display, text}]}
    focusOpt: -1,       // index of the focused option pill, -1 for the main input
    popup: null,        // {items: [{...}], active, onPick}
    acSeq: 0,
    viewSeq: 0,
    openSelect: null,
    modalKey: "",
    sending: false,
  };

  // ---- helpers ----
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === "class") e.className = v;
        else if (k === "text") e.textContent = v;
        else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
        else if (k === "dataset") Object.assign(e.dataset, v);
        else e.setAttribute(k, v === true ? "" : v);
      }
    }
    for (const k of kids.flat()) {
      if (k === null || k === undefined || k === false) continue;
      e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return e;
  }

  async function api(method, path, body) {
    const opts = { method, headers: {} };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, opts);
    } catch (e) {
      throw new Error("The playground is not reachable. Is it still running?");
    }
    let data = null;
    try { data = await resp.json(); } catch (e) { /* no body */ }
    if (!resp.ok) throw new Error((data && data.error) || ("HTTP " + resp.status));
    return data;
  }

  function userByID(id) {
    return (S.view && S.view.users.find((u) => u.id === id)) || null;
  }
  function channelByID(id) {
    if (!S.view) return null;
    if (S.view.dm && S.view.dm.id === id) return S.view.dm;
    return S.view.channels.find((c) => c.id === id) || null;
  }

  const palette = ["#5865f2", "#3ba55d", "#ed4245", "#eb459e", "#faa61a", "#1abc9c", "#9b59b6", "#e67e22"];
  function colorFor(name) {
    let h = 0;
    for (const ch of name) h = (h * 31 + ch.codePointAt(0)) >>> 0;
    return palette[h % palette.length];
  }
  function avatar(user, size) {
    const a = el("span", { class: "avatar" + (size ? " " + size : "") + (user.bot ? " bot" : ""), title: user.name });
    if (!user.bot) {
      a.textContent = user.name.slice(0, 1).toUpperCase();
      a.style.background = colorFor(user.name);
    }
    return a;
  }

  // Small line icons (no emoji font needed).
  const ICONS = {
    thread: '<path d="M5 4h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H10l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"/><path d="M8 9h8M8 12h5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
    lock: '<rect x="5" y="10.5" width="14" height="10" rx="2" fill="currentColor"/><path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" fill="none" stroke="currentColor" stroke-width="2.2"/>',
    eye: '<path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3" fill="currentColor"/>',
    hash: '<path d="M9 3 7 21M17 3l-2 18M4 8.5h17M3 15.5h17" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
    at: '<circle cx="12" cy="12" r="4" fill="none" stroke="currentColor" stroke-width="2"/><path d="M16 8v5a3 3 0 0 0 6 0v-1a10 10 0 1 0-4 8" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  };
  function icon(name, size) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("width", size || 20);
    svg.setAttribute("height", size || 20);
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("class", "svg-icon icon-" + name);
    svg.innerHTML = ICONS[name];
    return svg;
  }
  function channelIcon(kind, size) {
    return icon(kind === "private_thread" ? "lock" : kind === "public_thread" ? "thread" : kind === "dm" ? "at" : "hash", size);
  }

  // Snowflakes compare as numbers; they are decimal strings of growing length.
  function idAfter(a, b) {
    if (!b) return !!a;
    if (!a) return false;
    return a.length !== b.length ? a.length > b.length : a > b;
  }

  function fmtTime(iso) {
    const d = new Date(iso);
    const now = new Date();
    const hm = d.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
    if (d.toDateString() === now.toDateString()) return "Today at " + hm;
    const y = new Date(now); y.setDate(now.getDate() - 1);
    if (d.toDateString() === y.toDateString()) return "Yesterday at " + hm;
    return d.toLocaleDateString() + " " + hm;
  }
  function fmtSize(n) {
    if (n < 1024) return n + " bytes";
    if (n < 1 << 20) return (n / 1024).toFixed(1) + " KB";
    return (n / (1 << 20)).toFixed(2) + " MB";
  }
  // relTime is Discord's relative time ("in 5 minutes", "3 hours ago"), with the thresholds
  // of the moment.js library Discord's client uses: under 45 s "a few seconds", then "a minute",
  // minutes up to 45, "an hour", hours up to 22, "a day", days up to 26, "a month", months up
  // to 11, "a year", years.
  function relTime(sec, nowMs) {
    const diff = sec * 1000 - (nowMs === undefined ? Date.now() : nowMs);
    const s = Math.round(Math.abs(diff) / 1000);
    const m = Math.round(s / 60), h = Math.round(s / 3600), d = Math.round(s / 86400);
    let t;
    if (s < 45) t = "a few seconds";
    else if (s < 90) t = "a minute";
    else if (m < 45) t = m + " minutes";
    else if (m < 90) t = "an hour";
    else if (h < 22) t = h + " hours";
    else if (h < 36) t = "a day";
    else if (d < 26) t = d + " days";
    else if (d < 45) t = "a month";
    else if (d < 320) t = Math.round(d / 30.4375) + " months";
    else if (d < 548) t = "a year";
    else t = Math.round(d / 365.25) + " years";
    return diff > 0 ? "in " + t : t + " ago";
  }
  // discordTime writes <t:SEC:STYLE> as Discord does, in the reader's locale and time zone.
  function discordTime(sec, style) {
    const d = new Date(sec * 1000);
    const hm = { hour: "numeric", minute: "2-digit" };
    const long = { year: "numeric", month: "long", day: "numeric" };
    switch (style) {
      case "R": return relTime(sec);
      case "t": return d.toLocaleTimeString([], hm);
      case "T": return d.toLocaleTimeString([], { hour: "numeric", minute: "2-digit", second: "2-digit" });
      case "d": return d.toLocaleDateString();
      case "D": return d.toLocaleDateString([], long);
      case "s": return d.toLocaleDateString() + " " + d.toLocaleTimeString([], hm);
      case "S": return d.toLocaleDateString() + " " + d.toLocaleTimeString([], { hour: "numeric", minute: "2-digit", second: "2-digit" });
      case "F": return d.toLocaleDateString([], Object.assign({ weekday: "long" }, long)) + " " + d.toLocaleTimeString([], hm);
      default: return d.toLocaleDateString([], long) + " " + d.toLocaleTimeString([], hm); // f, Discord's default
    }
  }
  // Relative timestamps move on by themselves, as in Discord.
  function tickTimestamps() {
    for (const e of document.querySelectorAll(".ts-pill[data-style=R]")) {
      const t = relTime(Number(e.dataset.ts));
      if (e.textContent !== t) e.textContent = t;
    }
  }

  // ---- markdown (the part of Discord's that bots use) ----
  // A span's content is made of units: an escaped character (backslash and anything) or any
  // other character, so that an escaped marker never closes a span.
  const U = String.raw`(?:\\[\s\S]|[^\\])`;
  const INLINE = new RegExp([
    String.raw`(\x60+)([\s\S]*?[^\x60])\1(?!\x60)`, // 1, 2: code (no escapes inside)
    String.raw`\\([^0-9A-Za-z\s])`, // 3: an escaped character shows as itself
    String.raw`\*\*\*(?!\s)(${U}+?)\*\*\*(?!\*)`, // 4: bold italic
    String.raw`\*\*(${U}+?)\*\*(?!\*)`, // 5: bold
    String.raw`___(${U}+?)___(?!_)`, // 6: underline italic
    String.raw`__(${U}+?)__(?!_)`, // 7: underline
    String.raw`\*(?![\s*])((?:\\[\s\S]|[^\\*])+?)\*(?!\*)`, // 8: italic
    String.raw`(?<![0-9A-Za-z])_(?![\s_])((?:\\[\s\S]|[^\\_])+?)_(?![0-9A-Za-z_])`, // 9: italic
    String.raw`~~(${U}+?)~~`, // 10: strikethrough
    String.raw`\|\|(${U}+?)\|\|`, // 11: spoiler
    String.raw`<@!?(\d+)>`, // 12: user
    String.raw`<#(\d+)>`, // 13: channel
    String.raw`<@&(\d+)>`, // 14: role
    String.raw`<t:(-?\d+)(?::([tTdDfFsSR]))?>`, // 15, 16: timestamp
    String.raw`<\/([\w -]+):\d+>`, // 17: command
    String.raw`<a?:(\w+):\d+>`, // 18: custom emoji (shown by name: nothing comes from a CDN)
    String.raw`\[((?:\\[\s\S]|[^\\\]])+)\]\(<?(https?:\/\/[^\s)>]+)>?\)`, // 19, 20: masked link
    String.raw`https?:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/channels\/(?:\d+|@me)\/(\d+)(?:\/(\d+))?`, // 21, 22: a message or channel link
    String.raw`(https?:\/\/[^\s<]+[^\s<.,:;"')\]])`, // 23: link
  ].join("|"), "g");

  function channelMention(id, message) {
    const c = channelByID(id);
    const name = c ? (c.kind === "dm" ? "@" + c.name : (c.kind.endsWith("thread") ? "" : "#") + c.name) : "#No Access";
    return el("span", {
      class: "mention channel-mention", dataset: { channel: id, message: message || undefined },
      title: c ? "Open " + c.name : "You cannot see this channel", onclick: () => { if (c) openChannel(c.id); },
    }, c && c.kind.endsWith("thread") ? channelIcon(c.kind, 14) : null, name, message ? " › message" : null);
  }

  // maskedLink is [text](url): a link to a channel or message of this
  // server (a discord.com/channels/ address) opens it here, as Discord's
  // client does; any other link opens in a new tab.
  function maskedLink(text, url) {
    const dm = /\/channels\/[^/]+\/(\d+)(?:\/\d+)?\/?$/.exec(url);
    const c = dm && /^https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\//.test(url) ? channelByID(dm[1]) : null;
    if (c) {
      return el("a", { href: url, title: "Open " + c.name, onclick: (e) => { e.preventDefault(); openChannel(c.id); } }, inline(text));
    }
    return el("a", { href: url, target: "_blank", rel: "noopener noreferrer", title: url }, inline(text));
  }

  function inline(text) {
    // Returns DOM nodes for one line or span of text.
    const out = [];
    const re = new RegExp(INLINE.source, "g");
    let last = 0, m;
    while ((m = re.exec(text))) {
      if (m.index > last) out.push(document.createTextNode(text.slice(last, m.index)));
      last = re.lastIndex;
      if (m[1]) out.push(el("code", { text: m[2].replace(/^ (.*[^ ].*) $/, "$1") }));
      else if (m[3] !== undefined) out.push(document.createTextNode(m[3]));
      else if (m[4] !== undefined) out.push(el("strong", null, el("em", null, inline(m[4]))));
      else if (m[5] !== undefined) out.push(el("strong", null, inline(m[5])));
      else if (m[6] !== undefined) out.push(el("u", null, el("em", null, inline(m[6]))));
      else if (m[7] !== undefined) out.push(el("u", null, inline(m[7])));
      else if (m[8] !== undefined) out.push(el("em", null, inline(m[8])));
      else if (m[9] !== undefined) out.push(el("em", null, inline(m[9])));
      else if (m[10] !== undefined) out.push(el("s", null, inline(m[10])));
      else if (m[11] !== undefined) out.push(el("span", { class: "spoiler" }, inline(m[11])));
      else if (m[12]) {
        const u = userByID(m[12]);
        out.push(el("span", {
          class: "mention" + (m[12] === S.me ? " me" : ""), dataset: { user: m[12] },
          title: u ? "Act as " + u.name : "", onclick: () => { if (u && !u.bot) switchUser(u.id); },
        }, "@" + (u ? u.name : "unknown-user")));
      } else if (m[13]) out.push(channelMention(m[13]));
      else if (m[14]) out.push(el("span", { class: "mention" }, "@role"));
      else if (m[15]) {
        const sec = parseInt(m[15], 10);
        const style = m[16] || "f";
        out.push(el("span", { class: "ts-pill", dataset: { ts: String(sec), style }, title: discordTime(sec, "F") }, discordTime(sec, style)));
      } else if (m[17]) out.push(el("span", { class: "mention" }, "/" + m[17]));
      else if (m[18]) out.push(document.createTextNode(":" + m[18] + ":"));
      else if (m[19] !== undefined) out.push(maskedLink(m[19], m[20]));
      else if (m[21]) out.push(channelMention(m[21], m[22]));
      else if (m[23]) out.push(el("a", { href: m[23], target: "_blank", rel: "noopener noreferrer" }, m[23]));
    }
    if (last < text.length) out.push(document.createTextNode(text.slice(last)));
    return out;
  }

  // link is a URL in text, or a masked link [label](url) (label set). A
  // link to a channel of this server (discord.com/channels/<guild>/<channel>)
  // opens it here, as Discord's client does: a bare one shows as the
  // channel's pill, a masked one as its label. Other links open in a new tab.
  function link(url, label) {
    const ch = /^https:\/\/discord\.com\/channels\/[^/\s]+\/(\d+)\/?$/.exec(url);
    const c = ch ? channelByID(ch[1]) : null;
    if (c) {
      const open = (ev) => { ev.preventDefault(); openChannel(c.id); };
      if (label !== null) return el("a", { href: url, title: "Open " + c.name, onclick: open }, inline(label));
      return el("span", { class: "mention channel-mention", dataset: { channel: c.id }, title: "Open " + c.name, onclick: open },
        c.kind.endsWith("thread") ? channelIcon(c.kind, 14) : null, (c.kind.endsWith("thread") ? "" : "#") + c.name);
    }
    return el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, label !== null ? inline(label) : url);
  }

  function markdown(text) {
    const frag = document.createDocumentFragment();
    const parts = text.split(/```(?:[\w+-]*\n)?([\s\S]*?)```/);
    parts.forEach((part, i) => {
      if (i % 2 === 1) { frag.append(el("pre", null, el("code", { text: part.replace(/\n$/, "") }))); return; }
      // ">>> " quotes the rest of the message.
      const rest = /(^|\n)>>> ([\s\S]*)$/.exec(part);
      if (rest) part = part.slice(0, rest.index) + (rest[1] ? "\n" : "") + rest[2].split("\n").map((l) => "> " + l).join("\n");
      const lines = part.split("\n");
      let quote = null;
      lines.forEach((line, j) => {
        let node;
        let h;
        if ((h = /^(#{1,3}) (.*)$/.exec(line))) node = el("h" + h[1].length, null, inline(h[2]));
        else if ((h = /^-# (.*)$/.exec(line))) node = el("div", { class: "subtext" }, inline(h[1]));
        else if ((h = /^> ?(.*)$/.exec(line))) {
          if (!quote) { quote = el("blockquote"); frag.append(quote); } else quote.append("\n");
          quote.append(...inline(h[1]));
          return;
        } else if ((h = /^\s*[-*] (.*)$/.exec(line))) node = el("div", null, "• ", ...inline(h[1]));
        quote = null;
        if (node) { frag.append(node); return; }
        frag.append(...inline(line));
        if (j < lines.length - 1) frag.append("\n");
      });
    });
    return frag;
  }

  // ---- messages ----
  function attachmentURL(msg, name) {
    const a = msg.attachments.find((x) => x.filename === name);
    return a ? a.url : null;
  }
  function embedImageURL(msg, url) {
    if (!url) return null;
    if (url.startsWith("attachment://")) return attachmentURL(msg, url.slice(13));
    if (url.startsWith("/") || url.startsWith("data:")) return url;
    return null; // the playground never loads anything from the internet
  }

  function renderEmbed(msg, e) {
    const box = el("div", { class: "embed" });
    if (e.color !== undefined && e.color !== null) box.style.borderLeftColor = "#" + e.color.toString(16).padStart(6, "0");
    const thumb = e.thumbnail && embedImageURL(msg, e.thumbnail.url);
    if (thumb) box.append(el("img", { class: "embed-thumb", src: thumb, alt: "" }));
    if (e.author && e.author.name) box.append(el("div", { class: "embed-author" }, e.author.name));
    if (e.title) box.append(el("div", { class: "embed-title" }, inline(e.title)));
    if (e.description) box.append(el("div", { class: "embed-description" }, markdown(e.description)));
    if (e.fields && e.fields.length) {
      const grid = el("div", { class: "embed-fields" });
      for (const f of e.fields) {
        grid.append(el("div", { class: "embed-field" + (f.inline ? " inline" : "") },
          el("div", { class: "embed-field-name" }, inline(f.name)),
          el("div", { class: "embed-field-value" }, markdown(f.value))));
      }
      box.append(grid);
    }
    const img = e.image && embedImageURL(msg, e.image.url);
    if (img) {
      const i = el("img", { src: img, alt: "board", class: "embed-img" });
      i.addEventListener("click", () => lightbox(img));
      i.addEventListener("load", keepBottom);
      box.append(el("div", { class: "embed-image" }, i));
    }
    if ((e.footer && e.footer.text) || e.timestamp) {
      const parts = [];
      if (e.footer && e.footer.text) parts.push(e.footer.text);
      if (e.timestamp) parts.push(fmtTime(e.timestamp));
      box.append(el("div", { class: "embed-footer" }, parts.join(" • ")));
    }
    return box;
  }

  // usedInEmbeds names the attachments that the message's embeds or layout components show.
  function usedInEmbeds(msg) {
    const used = new Set();
    const walk = (c) => {
      if (!c) return;
      for (const m of [c.media, c.file, ...(c.items || []).map((x) => x.media)]) {
        if (m && m.url && m.url.startsWith("attachment://")) used.add(m.url.slice(13));
      }
      (c.components || []).forEach(walk);
      walk(c.accessory);
    };
    msg.components.forEach(walk);
    for (const e of msg.embeds) {
      for (const u of [e.image && e.image.url, e.thumbnail && e.thumbnail.url]) {
        if (u && u.startsWith("attachment://")) used.add(u.slice(13));
      }
    }
    return used;
  }

  function renderAttachments(msg) {
    if (msg.components_v2) return null; // Discord shows a V2 message's files only through its components
    const used = usedInEmbeds(msg);
    const box = el("div", { class: "attachments" });
    for (const a of msg.attachments) {
      if (used.has(a.filename)) continue;
      if (a.content_type && a.content_type.startsWith("image/")) {
        const i = el("img", { class: "attachment-image", src: a.url, alt: a.filename });
        i.addEventListener("click", () => lightbox(a.url));
        i.addEventListener("load", keepBottom);
        box.append(i);
      } else {
        box.append(el("div", { class: "file" }, el("span", { class: "file-icon" }),
          el("div", { class: "file-meta" },
            el("a", { class: "file-name", href: a.url, download: a.filename }, a.filename),
            el("span", { class: "file-size" }, fmtSize(a.size)))));
      }
    }
    return box.childNodes.length ? box : null;
  }

  function renderComponents(msg) {
    if (!msg.components.length) return null;
    const box = el("div", { class: "components" + (msg.components_v2 ? " v2" : "") });
    for (const c of msg.components) {
      const e = renderLayout(msg, c);
      if (e) box.append(e);
    }
    return box;
  }

  // mediaURL is what a Components V2 media item shows: a message attachment (attachment://),
  // or nothing from the internet.
  function mediaURL(msg, media) { return media ? embedImageURL(msg, media.url) : null; }

  // renderLayout draws one component of a message: an action row, or the layout components of
  // Components V2 (container, section, text display, thumbnail, media gallery, file, separator).
  function renderLayout(msg, c) {
    switch (c.type) {
      case 1: {
        const r = el("div", { class: "action-row" });
        for (const x of c.components || []) {
          if (x.type === 2) r.append(renderButton(msg, x));
          else if ([3, 5, 6, 7, 8].includes(x.type)) r.append(renderSelect(msg, x));
        }
        return r;
      }
      case 2: return renderButton(msg, c); // a section's accessory
      case 9: {
        const acc = c.accessory ? renderLayout(msg, c.accessory) : null;
        return el("div", { class: "v2-section" }, el("div", { class: "v2-section-text" }, (c.components || []).map((x) => renderLayout(msg, x))),
          acc ? el("div", { class: "v2-accessory" }, acc) : null);
      }
      case 10: return el("div", { class: "v2-text" }, markdown(c.content || ""));
      case 11: {
        const u = mediaURL(msg, c.media);
        if (!u) return null;
        const i = el("img", { class: "v2-thumb", src: u, alt: c.description || "" });
        i.addEventListener("click", () => lightbox(u));
        return i;
      }
      case 12: {
        const items = (c.items || []).map((it) => ({ u: mediaURL(msg, it.media), alt: it.description || "" })).filter((x) => x.u);
        const g = el("div", { class: "v2-gallery n" + Math.min(items.length, 4) });
        for (const it of items) {
          const i = el("img", { class: "v2-media", src: it.u, alt: it.alt || "image" });
          i.addEventListener("click", () => lightbox(it.u));
          i.addEventListener("load", keepBottom);
          g.append(i);
        }
        return g;
      }
      case 13: {
        const name = c.file && c.file.url ? c.file.url.replace(/^attachment:\/\//, "") : "";
        const a = msg.attachments.find((x) => x.filename === name);
        if (!a) return null;
        return el("div", { class: "file" }, el("span", { class: "file-icon" }),
          el("div", { class: "file-meta" }, el("a", { class: "file-name", href: a.url, download: a.filename }, a.filename),
            el("span", { class: "file-size" }, fmtSize(a.size))));
      }
      case 14: return el("div", { class: "v2-sep" + (c.divider === false ? "" : " divider") + (c.spacing === 2 ? " large" : "") });
      case 17: {
        const box = el("div", { class: "v2-container" + (c.spoiler ? " spoiler-box" : "") });
        if (c.accent_color !== undefined && c.accent_color !== null) box.style.borderLeftColor = "#" + c.accent_color.toString(16).padStart(6, "0");
        else box.classList.add("plain");
        for (const x of c.components || []) {
          const e = renderLayout(msg, x);
          if (e) box.append(e);
        }
        return box;
      }
    }
    return null;
  }

  function emojiText(e) {
    return e && e.name ? e.name + " " : "";
  }

  function renderButton(msg, c) {
    const style = c.style || 1;
    const label = emojiText(c.emoji) + (c.label || "");
    if (style === 5) {
      return el("a", { class: "btn btn-5", href: c.url, target: "_blank", rel: "noopener noreferrer" }, label, " ↗");
    }
    const b = el("button", { type: "button", class: "btn btn-" + style, disabled: !!c.disabled, dataset: { customId: c.custom_id || "" } }, label);
    b.addEventListener("click", async () => {
      b.classList.add("busy");
      try {
        const r = await api("POST", "/api/click", { as: S.me, message_id: msg.id, custom_id: c.custom_id });
        if (!r.responded) showError(r.error || "The bot did not respond.");
      } catch (e) { showError(e.message); }
      b.classList.remove("busy");
      refresh();
    });
    return b;
  }

  function selectOptions(c) {
    if (c.type === 3) return (c.options || []).map((o) => ({ value: o.value, label: o.label, desc: o.description, emoji: o.emoji, def: o.default }));
    if (c.type === 5) return S.view.users.filter((u) => !u.bot).map((u) => ({ value: u.id, label: u.name }));
    return [];
  }

  function renderSelect(msg, c) {
    const opts = selectOptions(c);
    const min = c.min_values === undefined || c.min_values === null ? 1 : c.min_values;
    const max = c.max_values || 1;
    const wrap = el("div", { class: "select" + (c.disabled ? " disabled" : ""), dataset: { customId: c.custom_id } });
    const chosenDefault = opts.filter((o) => o.def).map((o) => o.label);
    const box = el("button", { type: "button", class: "select-box", disabled: !!c.disabled },
      chosenDefault.length ? el("span", null, chosenDefault.join(", ")) : el("span", { class: "placeholder" }, c.placeholder || "Make a selection"),
      el("span", { "aria-hidden": "true" }, "▾"));
    wrap.append(box);
    box.addEventListener("click", (ev) => {
      ev.stopPropagation();
      if (S.openSelect === wrap) { closeSelect(); return; }
      closeSelect();
      const chosen = new Set();
      const list = el("div", { class: "select-list", role: "listbox" });
      const send = async (values) => {
        closeSelect();
        try {
          const r = await api("POST", "/api/select", { as: S.me, message_id: msg.id, custom_id: c.custom_id, values });
          if (!r.responded) showError(r.error || "The bot did not respond.");
        } catch (e) { showError(e.message); }
        refresh();
      };
      for (const o of opts) {
        const item = el("div", { class: "select-option", role: "option", dataset: { value: o.value } },
          o.emoji ? el("span", null, o.emoji.name) : null,
          el("span", null, o.label, o.desc ? el("span", { class: "desc" }, o.desc) : null),
          max > 1 ? el("span", { class: "tick" }) : null);
        item.addEventListener("click", (e) => {
          e.stopPropagation();
          if (max === 1) { send([o.value]); return; }
          if (chosen.has(o.value)) chosen.delete(o.value); else if (chosen.size < max) chosen.add(o.value);
          item.classList.toggle("chosen", chosen.has(o.value));
        });
        list.append(item);
      }
      if (max > 1) {
        const apply = el("button", { type: "button", class: "btn btn-1 select-apply" }, "Apply");
        apply.addEventListener("click", (e) => {
          e.stopPropagation();
          if (chosen.size < min) { showError("Choose at least " + min + "."); return; }
          send([...chosen]);
        });
        list.append(apply);
      }
      wrap.append(list);
      // Open upwards when the list would run past the bottom of the messages.
      const room = $("#messages").getBoundingClientRect().bottom - box.getBoundingClientRect().bottom;
      if (room < Math.min(list.scrollHeight, 300) + 8) list.classList.add("up");
      S.openSelect = wrap;
    });
    return wrap;
  }
  function closeSelect() {
    if (S.openSelect) { const l = $(".select-list", S.openSelect); if (l) l.remove(); S.openSelect = null; }
  }

  // jumbo reports whether a message is emoji alone (at most 30), which Discord shows large.
  function jumbo(text) {
    if (!/^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[\u200D\uFE0F\u20E3\s])+$/u.test(text)) return false;
    const n = (text.match(/\p{Extended_Pictographic}|\p{Regional_Indicator}{2}/gu) || []).length;
    return n > 0 && n <= 30;
  }

  function renderMessage(msg, head) {
    const m = el("div", {
      class: "message" + (head ? " head" : "") + (msg.ephemeral ? " ephemeral" : "") + (msg.interaction && head ? " has-reply" : ""),
      dataset: { id: msg.id, author: msg.author.name },
    });
    if (head) {
      if (msg.interaction) {
        const iu = msg.interaction.user;
        const what = msg.interaction.command ? el("span", { class: "cmd" }, "/" + msg.interaction.command) : "a button";
        m.append(el("div", { class: "reply-line" }, avatar(iu, "tiny"), el("span", { class: "who" }, iu.name), " used ", what));
      }
      m.append(avatar(msg.author));
      m.append(el("div", { class: "msg-header" },
        el("span", { class: "author" + (msg.author.bot ? " is-bot" : "") }, msg.author.name),
        msg.author.bot ? el("span", { class: "bot-tag" }, "BOT") : null,
        el("span", { class: "timestamp" }, fmtTime(msg.timestamp))));
    } else {
      m.append(el("span", { class: "time-side" }, new Date(msg.timestamp).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" })));
    }
    if (msg.loading) {
      m.append(el("div", { class: "loading" }, msg.author.name + " is thinking", el("span", { class: "dots" }, el("span", null, "."), el("span", null, "."), el("span", null, "."))));
    } else if (msg.content) {
      const c = el("div", { class: "content" + (jumbo(msg.content) ? " jumbo" : "") }, markdown(msg.content));
      if (msg.edited) c.append(el("span", { class: "edited" }, "(edited)"));
      m.append(c);
    }
    for (const e of msg.embeds) m.append(renderEmbed(msg, e));
    const atts = renderAttachments(msg);
    if (atts) m.append(atts);
    const comps = renderComponents(msg);
    if (comps) m.append(comps);
    if (msg.thread) {
      const t = msg.thread;
      m.append(el("div", { class: "file thread-preview", onclick: () => openChannel(t.id) },
        channelIcon(t.kind, 22), el("div", { class: "file-meta" }, el("span", { class: "file-name" }, t.name), el("span", { class: "file-size" }, t.message_count + (t.message_count === 1 ? " message" : " messages")))));
    }
    if (msg.ephemeral) {
      const dismiss = el("a", { class: "dismiss" }, "Dismiss message");
      dismiss.addEventListener("click", () => { S.dismissed.add(msg.id); renderMessages(); });
      m.append(el("div", { class: "ephemeral-note" }, icon("eye", 14), "Only you can see this • ", dismiss));
    }
    return m;
  }

  function atBottom() {
    const box = $("#messages");
    return box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  }
  let stick = true;
  function keepBottom() {
    if (stick) { const box = $("#messages"); box.scrollTop = box.scrollHeight; }
  }

  function renderMessages() {
    const box = $("#messages");
    const v = S.view;
    if (box.dataset.channel !== v.channel.id) stick = true;
    const keep = new Map();
    const nodes = [welcome(v.channel)];
    let prev = null;
    for (const msg of v.messages) {
      if (S.dismissed.has(msg.id)) continue;
      const head = !prev || prev.author.id !== msg.author.id || !!msg.interaction || prev.ephemeral !== msg.ephemeral ||
        new Date(msg.timestamp) - new Date(prev.timestamp) > 7 * 60 * 1000;
      prev = msg;
      const key = [msg.version, head, msg.loading, msg.thread ? msg.thread.message_count : ""].join("|");
      let c = S.msgCache.get(msg.id);
      if (!c || c.key !== key) c = { key, el: renderMessage(msg, head) };
      keep.set(msg.id, c);
      nodes.push(c.el);
    }
    S.msgCache = keep;
    // Replace children only where they changed, so images and scroll stay put.
    let i = 0;
    for (; i < nodes.length; i++) {
      if (box.children[i] !== nodes[i]) {
        if (box.children[i]) box.insertBefore(nodes[i], box.children[i]); else box.append(nodes[i]);
      }
    }
    while (box.children.length > nodes.length) box.lastElementChild.remove();
    box.dataset.channel = v.channel.id;
    keepBottom();
  }

  let welcomeCache = { key: "", el: null };
  function welcome(c) {
    const key = c.id + c.name;
    if (welcomeCache.key === key) return welcomeCache.el;
    let e;
    if (c.kind === "dm") {
      e = el("div", { class: "welcome" }, avatar(S.view.bot), el("h1", null, BOTNAME()),
        el("p", null, "This is the beginning of your direct message history with ", el("strong", null, BOTNAME()), ". Private game messages, such as your SandTable deployment, arrive here."));
    } else if (c.kind.endsWith("thread")) {
      e = el("div", { class: "welcome" }, el("div", { class: "big" }, channelIcon(c.kind, 40)), el("h1", null, c.name),
        el("p", null, c.kind === "private_thread" ? "A private thread: only its members can see it." : "A public thread: everyone in the server can see it."));
    } else {
      e = el("div", { class: "welcome" }, el("div", { class: "big" }, icon("hash", 42)), el("h1", null, "Welcome to #" + c.name + "!"),
        el("p", null, "This is the start of the #" + c.name + " channel. Type / to see the bot's commands."));
    }
    welcomeCache = { key, el: e };
    return e;
  }
  function BOTNAME() { return S.view.bot.name; }

  // ---- sidebar ----
  function lastRead(user) {
    try { return JSON.parse(localStorage.getItem("read:" + (user || S.me)) || "{}"); } catch (e) { return {}; }
  }
  // unreadDM reports whether person id has a direct message they have not opened yet.
  function unreadDM(id) {
    const d = S.view && S.view.dms && S.view.dms[id];
    return !!d && idAfter(d.last_message_id, lastRead(id)[d.channel_id]);
  }
  function dmDot() { return el("span", { class: "dm-dot", title: "Unread direct message" }); }
  function markRead(c) {
    const r = lastRead();
    if (c.last_message_id && idAfter(c.last_message_id, r[c.id])) {
      r[c.id] = c.last_message_id;
      try { localStorage.setItem("read:" + S.me, JSON.stringify(r)); } catch (e) { /* private mode */ }
    }
  }

  let sidebarKey = "";
  function renderSidebar() {
    const v = S.view;
    // Re-render only on a change, so that the items stay put under the mouse.
    const read = lastRead();
    const key = JSON.stringify([S.me, v.guild.name, v.channel.id, v.channels, v.dm, read]);
    if (key === sidebarKey) return;
    sidebarKey = key;
    $("#server-name").textContent = v.guild.name;
    $("#server-initials").textContent = v.guild.name.split(/\s+/).map((w) => w[0]).join("").slice(0, 3);
    $("#rail-server").title = v.guild.name;
    const list = $("#channel-list");
    const item = (c, icon, cls, onClick) => {
      const unread = c.id !== v.channel.id && idAfter(c.last_message_id, read[c.id]);
      const e = el("div", {
        class: "channel-item " + cls + (c.id === v.channel.id ? " selected" : "") + (unread ? " unread" : "") + (c.archived ? " archived" : ""),
        role: "listitem", dataset: { id: c.id, name: c.name, kind: c.kind }, title: c.name,
      }, icon, el("span", { class: "name" }, c.name));
      e.addEventListener("click", onClick || (() => openChannel(c.id)));
      return e;
    };
    const nodes = [el("div", { class: "category" }, "Text channels")];
    const texts = v.channels.filter((c) => c.kind === "text");
    for (const c of texts) {
      nodes.push(item(c, el("span", { class: "icon" }, icon("hash", 20)), "text"));
      for (const t of v.channels.filter((x) => x.parent_id === c.id)) {
        nodes.push(item(t, el("span", { class: "icon", title: t.kind === "private_thread" ? "Private thread" : "Thread" }, channelIcon(t.kind, 16)), "thread " + t.kind));
      }
    }
    nodes.push(el("div", { class: "category" }, "Direct messages"));
    const dm = v.dm || { id: "", name: v.bot.name, kind: "dm", last_message_id: "" };
    const dmItem = item(dm, avatar(v.bot, "small"), "dm", openDM);
    dmItem.querySelector(".name").append(" ", el("span", { class: "bot-tag" }, "BOT"));
    nodes.push(dmItem);
    list.replaceChildren(...nodes);
    $("#rail-home").classList.toggle("selected", v.channel.kind === "dm");
    $("#rail-server").classList.toggle("selected", v.channel.kind !== "dm");
  }

  function renderHeader() {
    const c = S.view.channel;
    const iconEl = $("#chat-icon");
    const title = $("#chat-title");
    const topic = $("#chat-topic");
    title.replaceChildren();
    iconEl.replaceChildren(channelIcon(c.kind, 24));
    if (c.kind === "dm") {
      title.append(c.name);
      topic.textContent = "Direct messages with the bot";
    } else if (c.kind.endsWith("thread")) {
      const parent = channelByID(c.parent_id);
      if (parent) {
        const crumb = el("span", { class: "crumb" }, "#" + parent.name + "  ›  ");
        crumb.addEventListener("click", () => openChannel(parent.id));
        title.append(crumb);
      }
      title.append(c.name);
      topic.textContent = (c.kind === "private_thread" ? "Private thread · " : "Thread · ") + (c.members || []).length + " members" +
        (c.locked ? " · Locked" : c.archived ? " · Archived" : "");
    } else {
      title.append(c.name);
      topic.textContent = "Game commands: type / in the box below";
    }
    document.title = (c.kind === "dm" ? "@" : "#") + c.name + " · " + S.view.guild.name;
  }

  let membersKey = "";
  function renderMembers() {
    const v = S.view;
    const c = v.channel;
    const key = JSON.stringify([S.me, c.id, c.members, v.users, v.users.map((u) => unreadDM(u.id))]);
    if (key === membersKey) return;
    membersKey = key;
    let people = v.users;
    let title = "Members — " + people.length;
    if (c.kind.endsWith("thread")) {
      const ids = new Set(c.members || []);
      people = v.users.filter((u) => ids.has(u.id));
      title = "Thread members — " + people.length;
    } else if (c.kind === "dm") {
      people = v.users.filter((u) => u.bot || u.id === S.me);
      title = "Direct message — 2";
    }
    $("#members-title").textContent = title;
    $("#member-list").replaceChildren(...people.map((u) => {
      const e = el("div", { class: "member" + (u.id === S.me ? " me" : ""), dataset: { name: u.name }, title: u.bot ? u.name : "Act as " + u.name },
        avatar(u, "small"), el("span", null, u.name), u.bot ? el("span", { class: "bot-tag" }, "BOT") : null,
        u.id === S.me ? el("span", { class: "you" }, "(you)") : null, u.id !== S.me && unreadDM(u.id) ? dmDot() : null);
      if (!u.bot) e.addEventListener("click", () => switchUser(u.id));
      return e;
    }));
  }

  function renderMe() {
    const me = S.view.me;
    const others = S.view.users.filter((u) => !u.bot && u.id !== me.id && unreadDM(u.id)).length;
    const sub = $("#switch-user .me-sub");
    sub.textContent = others ? others + (others > 1 ? " others have" : " other has") + " new DMs" : "Switch user";
    sub.title = others ? "Someone you can act as has an unread direct message" : "";
    sub.classList.toggle("alert", others > 0);
    const a = $("#me-avatar");
    a.replaceWith(Object.assign(avatar(me, "small"), { id: "me-avatar" }));
    $("#me-name").textContent = me.name;
    $("#composer-input").placeholder = S.cmd ? "" : "Message " + (S.view.channel.kind === "dm" ? "@" : "#") + S.view.channel.name + " as " + me.name + " — type / for commands";
  }

  // renderThreadState says when the open thread is archived or locked, as Discord's client does:
  // a locked thread has no message box (nor commands); a message unarchives an archived one.
  function renderThreadState() {
    const c = S.view.channel;
    const note = $("#thread-note");
    const locked = !!c.locked && c.kind.endsWith("thread");
    document.body.dataset.thread = locked ? "locked" : c.archived ? "archived" : "";
    $("#composer-box").hidden = locked;
    if (locked && S.cmd) cancelCommand();
    if (locked) {
      note.hidden = false;
      note.className = "locked";
      note.replaceChildren(icon("lock", 16), " This thread is locked: only moderators can send messages or use commands in it.");
    } else if (c.archived) {
      note.hidden = false;
      note.className = "archived";
      note.replaceChildren(icon("thread", 16), " This thread is archived. Sending a message unarchives it.");
    } else {
      note.hidden = true;
    }
  }

  function renderBanner() {
    const b = $("#banner");
    const st = S.view.status;
    if (st.state === "ready") { b.hidden = true; return; }
    b.hidden = false;
    b.classList.toggle("failed", st.state === "failed");
    b.textContent = st.state === "failed" ? "SandTable failed to start: " + st.error : "SandTable is connecting to the playground…";
  }

  function toggleUserMenu(show) {
    const menu = $("#user-menu");
    if (show === undefined) show = menu.hidden;
    if (!show) { menu.hidden = true; return; }
    menu.replaceChildren(el("div", { class: "menu-title" }, "Act as"), ...S.view.users.filter((u) => !u.bot).map((u) => {
      const e = el("div", { class: "user-item" + (u.id === S.me ? " current" : ""), role: "menuitem", dataset: { name: u.name, id: u.id } },
        avatar(u, "small"), el("span", null, u.name), u.id !== S.me && unreadDM(u.id) ? el("span", { class: "menu-note" }, "new DM", dmDot()) : null,
        u.id === S.me ? el("span", { class: "check" }, "✓") : null);
      e.addEventListener("click", () => { toggleUserMenu(false); switchUser(u.id); });
      return e;
    }));
    menu.hidden = false;
  }

  // ---- modal ----
  function renderModal() {
    const md = S.view.modal;
    const root = $("#modal-root");
    if (!md) { root.hidden = true; root.replaceChildren(); S.modalKey = ""; return; }
    const key = S.me + "/" + md.custom_id;
    if (S.modalKey === key) return; // keep what is typed
    S.modalKey = key;
    const inputs = md.inputs.map((ti) => {
      const attrs = { id: "mi-" + ti.custom_id, name: ti.custom_id, placeholder: ti.placeholder || "", required: ti.required || false };
      if (ti.max_length) attrs.maxlength = ti.max_length;
      if (ti.min_length) attrs.minlength = ti.min_length;
      const f = el(ti.paragraph ? "textarea" : "input", attrs);
      f.value = ti.value || "";
      return el("div", null, el("label", { for: "mi-" + ti.custom_id }, ti.label, ti.required ? el("span", { class: "req" }, "*") : null), f);
    });
    const err = el("div", { class: "modal-error", hidden: true });
    const form = el("form", { class: "modal", dataset: { customId: md.custom_id } },
      el("div", { class: "modal-head" }, avatar(S.view.bot, "small"), el("h2", null, md.title),
        el("button", { type: "button", class: "close-x", title: "Close", onclick: dismissModal }, "×")),
      el("div", { class: "modal-body" }, ...inputs, err),
      el("div", { class: "modal-foot" }, el("button", { type: "button", class: "btn-link", onclick: dismissModal }, "Cancel"),
        el("button", { type: "submit", class: "btn btn-1" }, "Submit")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const values = {};
      for (const ti of md.inputs) values[ti.custom_id] = form.elements[ti.custom_id].value;
      try {
        const r = await api("POST", "/api/modal/submit", { as: S.me, values });
        if (!r.responded) showError(r.error || "The bot did not respond.");
        S.modalKey = "";
        root.hidden = true;
      } catch (e) { err.hidden = false; err.textContent = e.message; }
      refresh();
    });
    root.replaceChildren(form);
    root.hidden = false;
    const first = form.querySelector("input, textarea");
    if (first) first.focus();
  }
  async function dismissModal() {
    try { await api("POST", "/api/modal/dismiss", { as: S.me }); } catch (e) { showError(e.message); }
    S.modalKey = "";
    $("#modal-root").hidden = true;
    refresh();
  }

  function lightbox(src) {
    const lb = $("#lightbox");
    lb.querySelector("img").src = src;
    lb.hidden = false;
  }

  // ---- composer: plain messages and slash commands ----
  const OPT = { SUB: 1, GROUP: 2, STRING: 3, INTEGER: 4, BOOLEAN: 5, USER: 6, CHANNEL: 7, ROLE: 8, MENTIONABLE: 9, NUMBER: 10, ATTACHMENT: 11 };

  // leafCommands flattens the registered commands into what can be run: "survival challenge".
  function leafCommands() {
    const out = [];
    for (const c of S.view.commands) {
      const subs = (c.options || []).filter((o) => o.type === OPT.SUB || o.type === OPT.GROUP);
      if (!subs.length) { out.push({ path: c.name, desc: c.description, options: c.options || [] }); continue; }
      for (const s of subs) {
        if (s.type === OPT.SUB) out.push({ path: c.name + " " + s.name, desc: s.description, options: s.options || [] });
        else for (const ss of s.options || []) out.push({ path: c.name + " " + s.name + " " + ss.name, desc: ss.description, options: ss.options || [] });
      }
    }
    return out;
  }

  function showError(msg) {
    const e = $("#composer-error");
    if (!msg) { e.hidden = true; e.textContent = ""; return; }
    e.hidden = false;
    e.textContent = msg;
    clearTimeout(showError.t);
    showError.t = setTimeout(() => { e.hidden = true; }, 8000);
  }

  function setHint(text) { $("#composer-hint").textContent = text || ""; }

  function closePopup() { S.popup = null; $("#popup").hidden = true; $("#popup").replaceChildren(); }

  // dismissPopup is Esc on an open list: it closes, and a suggestion still on its way does not
  // reopen it (typing again does).
  function dismissPopup() { S.acSeq++; clearTimeout(suggest.t); closePopup(); }

  // showPopup lists items {main, args, desc, value}; onPick(item) is called on click or Enter.
  // The first item is highlighted, as in Discord: Enter picks it. suggestOnly marks the bot's
  // autocomplete (a list made for one text, replaced as soon as the text changes).
  function showPopup(title, items, onPick, emptyText, sub, suggestOnly) {
    const p = $("#popup");
    if (!items.length && !emptyText) { closePopup(); return; }
    const active = items.length ? 0 : -1;
    S.popup = { items, active, onPick, suggestOnly: !!suggestOnly };
    p.classList.toggle("suggest-only", !!suggestOnly);
    const nodes = [el("div", { class: "popup-title" }, el("span", null, title), sub ? el("span", { class: "sub" }, sub) : null)];
    if (!items.length) nodes.push(el("div", { class: "popup-empty" }, emptyText));
    items.forEach((it, i) => {
      const e = el("div", { class: "popup-item" + (i === active ? " active" : ""), role: "option", dataset: { value: String(it.value), index: String(i) } },
        it.avatar || null, el("span", { class: "pi-main" }, it.main), it.args ? el("span", { class: "pi-args" }, it.args) : null,
        it.desc ? el("span", { class: "pi-desc" }, it.desc) : null);
      e.addEventListener("mousedown", (ev) => { ev.preventDefault(); onPick(it); });
      e.addEventListener("mousemove", () => setActive(i));
      nodes.push(e);
    });
    p.replaceChildren(...nodes);
    p.hidden = false;
  }
  function setActive(i) {
    if (!S.popup || !S.popup.items.length) return;
    const n = S.popup.items.length;
    S.popup.active = (i + n) % n; // from none (-1), ↓ goes to the first and ↑ to the last
    const items = $("#popup").querySelectorAll(".popup-item");
    items.forEach((e, j) => e.classList.toggle("active", j === S.popup.active));
    items[S.popup.active].scrollIntoView({ block: "nearest" });
  }

  function optionSummary(opts) {
    return opts.map((o) => (o.required ? o.name : "[" + o.name + "]")).join(" ");
  }

  function onMainInput() {
    const input = $("#composer-input");
    const text = input.value;
    showError("");
    if (S.cmd) return;
    if (text.startsWith("/")) {
      const typed = text.slice(1).trim().toLowerCase();
      const leaves = leafCommands().filter((c) => c.path.startsWith(typed) || c.path.replace(/ /g, "").startsWith(typed.replace(/ /g, "")));
      showPopup("Commands matching /" + typed, leaves.map((c) => ({ main: "/" + c.path, args: optionSummary(c.options), desc: c.desc, value: c.path, leaf: c })),
        (it) => startCommand(it.leaf), S.view.commands.length ? "No command matches." : "The bot has not registered its commands yet.", BOTNAME());
      setHint("↑↓ to choose, Enter or Tab to pick, Esc to cancel");
    } else {
      closePopup();
      setHint("");
    }
  }

  function startCommand(leaf) {
    closePopup();
    S.cmd = { path: leaf.path, leaf, options: [] };
    // Required options first (Discord orders them so), optional ones shown too.
    for (const o of leaf.options) S.cmd.options.push({ def: o, value: undefined, display: "", text: "" });
    $("#composer-input").value = "";
    renderCommand();
    if (S.cmd.options.length) focusOption(0); else { $("#composer-input").focus(); setHint("Press Enter to send /" + leaf.path); }
  }

  function cancelCommand() {
    S.cmd = null;
    S.focusOpt = -1;
    closePopup();
    $("#command-chip").hidden = true;
    $("#option-pills").replaceChildren();
    $("#composer-input").hidden = false;
    $("#composer-input").value = "";
    renderMe();
    setHint("");
    $("#composer-input").focus();
  }

  function renderCommand() {
    const chip = $("#command-chip");
    chip.hidden = false;
    chip.textContent = "/" + S.cmd.path;
    const pills = S.cmd.options.map((o, i) => {
      if (o.def.type === OPT.ATTACHMENT) return filePill(o, i);
      const input = el("input", { type: "text", "aria-label": o.def.name, spellcheck: "false" });
      input.value = o.text;
      input.size = Math.max(4, Math.min(40, (o.text || "").length + 2));
      input.addEventListener("focus", () => focusOption(i, true));
      input.addEventListener("input", () => {
        o.text = input.value; o.display = ""; o.value = undefined;
        input.size = Math.max(4, Math.min(40, input.value.length + 2));
        pill.classList.remove("invalid");
        showError("");
        suggest(i);
      });
      input.addEventListener("keydown", (ev) => optionKey(ev, i));
      const pill = el("span", { class: "option-pill" + (o.def.required ? "" : " optional"), dataset: { name: o.def.name }, title: o.def.description },
        el("span", { class: "opt-name" }, o.def.name + ":"), input);
      return pill;
    });
    $("#option-pills").replaceChildren(...pills);
    $("#composer-input").hidden = S.cmd.options.length > 0;
    $("#composer-input").placeholder = "";
  }

  // filePill is an attachment option: a file chosen on this computer, sent with the command.
  function filePill(o, i) {
    const file = el("input", { type: "file", class: "file-input", "aria-label": o.def.name });
    const shown = el("button", { type: "button", class: "opt-file" }, o.text || "Choose a file…");
    shown.addEventListener("click", () => file.click());
    shown.addEventListener("focus", () => focusOption(i, true));
    shown.addEventListener("keydown", (ev) => optionKey(ev, i));
    file.addEventListener("change", () => {
      const f = file.files[0];
      if (!f) return;
      if (f.size > 64 * 1024) { showError(f.name + " is over 64 KiB."); return; }
      const reader = new FileReader();
      reader.onload = () => {
        const data = String(reader.result).replace(/^data:[^,]*,/, "");
        o.value = { filename: f.name, content_type: f.type || "application/octet-stream", data };
        o.text = f.name;
        shown.textContent = f.name;
        pill.classList.remove("invalid");
        showError("");
        setHint("Press Enter to send /" + S.cmd.path);
        shown.focus();
      };
      reader.readAsDataURL(f);
    });
    const pill = el("span", { class: "option-pill" + (o.def.required ? "" : " optional"), dataset: { name: o.def.name }, title: o.def.description },
      el("span", { class: "opt-name" }, o.def.name + ":"), shown, file);
    return pill;
  }

  function pillInput(i) { return $("#option-pills").children[i].querySelector("input:not([type=file]), button.opt-file"); }

  function focusOption(i, fromEvent) {
    S.focusOpt = i;
    [...$("#option-pills").children].forEach((p, j) => p.classList.toggle("focused", j === i));
    if (!fromEvent) pillInput(i).focus();
    const d = S.cmd.options[i].def;
    setHint(d.name + (d.required ? "" : " (optional)") + ": " + d.description + "  ·  Tab: next option  ·  Enter: send  ·  Esc: cancel");
    suggest(i);
  }

  // suggest shows what the focused option can take: users, choices, or the bot's autocomplete.
  function suggest(i) {
    const o = S.cmd.options[i];
    const d = o.def;
    const typed = (o.text || "").toLowerCase();
    const pick = (it) => {
      S.acSeq++; // drop suggestions still on their way
      o.value = it.value; o.display = it.main; o.text = it.main;
      const inp = pillInput(i);
      inp.value = it.main;
      inp.size = Math.max(4, Math.min(40, it.main.length + 2));
      closePopup();
      const next = S.cmd.options.findIndex((x, j) => j > i && x.def.required && x.value === undefined && !x.text);
      if (next >= 0) focusOption(next); else setHint("Press Enter to send /" + S.cmd.path);
    };
    if (d.type === OPT.ATTACHMENT) {
      closePopup();
      setHint(d.name + ": " + d.description + "  ·  Space or click: choose a file  ·  Enter: send  ·  Esc: cancel");
    } else if (d.type === OPT.USER || d.type === OPT.MENTIONABLE) {
      const users = S.view.users.filter((u) => u.name.toLowerCase().startsWith(typed.replace(/^@/, "")));
      showPopup(d.name, users.map((u) => ({ main: "@" + u.name, value: u.id, avatar: avatar(u, "tiny"), desc: u.bot ? "bot" : (u.id === S.me ? "you" : "") })), pick, "No member matches.");
    } else if (d.type === OPT.CHANNEL) {
      const chans = S.view.channels.filter((c) => c.name.toLowerCase().includes(typed.replace(/^#/, "")));
      showPopup(d.name, chans.map((c) => ({ main: "#" + c.name, value: c.id })), pick, "No channel matches.");
    } else if (d.type === OPT.BOOLEAN) {
      showPopup(d.name, [{ main: "True", value: true }, { main: "False", value: false }].filter((x) => x.main.toLowerCase().startsWith(typed)), pick, "True or False.");
    } else if (d.choices && d.choices.length) {
      const ch = d.choices.filter((c) => c.name.toLowerCase().includes(typed));
      showPopup(d.name, ch.map((c) => ({ main: c.name, value: c.value })), pick, "No choice matches.");
    } else if (d.autocomplete) {
      // The bot's suggestions are for the text it was asked about. From the moment the text
      // changes, the list on screen is stale: it is replaced at once by "Loading", so that no
      // key can pick from it, and the answer is shown only if the text is still the same.
      // While the answer for the text on screen is on its way, no list can be picked from:
      // Enter sends what was typed. Once it shows, Enter takes its highlighted suggestion.
      const seq = ++S.acSeq;
      const asked = o.text || "";
      clearTimeout(suggest.t);
      if (o.value !== undefined) { closePopup(); return; } // a picked suggestion: nothing to ask
      showPopup(d.name, [], pick, "Loading options…", BOTNAME() + " suggests", true);
      suggest.t = setTimeout(async () => {
        const options = collectOptions(false).filter((x) => x.name !== d.name);
        options.push({ name: d.name, value: asked, focused: true });
        try {
          const r = await api("POST", "/api/autocomplete", { as: S.me, channel_id: S.channel, command: S.cmd.path, options });
          if (seq !== S.acSeq || !S.cmd || S.focusOpt !== i || o.value !== undefined || (o.text || "") !== asked) return;
          showPopup(d.name, r.choices.map((c) => ({ main: c.name, value: c.value })), pick, "No suggestion for what you typed.", BOTNAME() + " suggests", true);
          if (r.choices.length) setHint("↑↓ to choose, Enter: take the suggestion  ·  Tab: next option  ·  Esc: close the list");
        } catch (e) {
          if (seq === S.acSeq) showPopup(d.name, [], pick, e.message, "", true);
        }
      }, 120);
    } else {
      closePopup();
    }
  }

  // collectOptions turns the pills into API options; strict reports missing or bad values.
  function collectOptions(strict) {
    const out = [];
    for (let i = 0; i < S.cmd.options.length; i++) {
      const o = S.cmd.options[i];
      const d = o.def;
      let v = o.value;
      if (v === undefined && o.text !== "") {
        v = o.text;
        if (d.type === OPT.INTEGER || d.type === OPT.NUMBER) {
          v = Number(o.text);
          if (strict && (!isFinite(v) || (d.type === OPT.INTEGER && !Number.isInteger(v)))) throw { i, msg: d.name + " must be a " + (d.type === OPT.INTEGER ? "whole number" : "number") + "." };
        } else if (d.type === OPT.BOOLEAN) {
          v = /^(true|yes|1)$/i.test(o.text);
        } else if (d.type === OPT.USER || d.type === OPT.MENTIONABLE) {
          const name = o.text.replace(/^@/, "").toLowerCase();
          const u = S.view.users.find((x) => x.name.toLowerCase() === name);
          if (!u) { if (strict) throw { i, msg: "No member named " + o.text + "." }; continue; }
          v = u.id;
        } else if (d.type === OPT.CHANNEL) {
          const name = o.text.replace(/^#/, "").toLowerCase();
          const c = S.view.channels.find((x) => x.name.toLowerCase() === name);
          if (!c) { if (strict) throw { i, msg: "No channel named " + o.text + "." }; continue; }
          v = c.id;
        } else if (d.choices && d.choices.length) {
          const c = d.choices.find((x) => x.name.toLowerCase() === o.text.toLowerCase() || String(x.value).toLowerCase() === o.text.toLowerCase());
          if (!c) { if (strict) throw { i, msg: d.name + " must be one of: " + d.choices.map((x) => x.name).join(", ") + "." }; continue; }
          v = c.value;
        }
      }
      if (v === undefined || v === "") {
        if (strict && d.required) throw { i, msg: d.name + " is required." };
        continue;
      }
      out.push({ name: d.name, value: v });
    }
    return out;
  }

  async function sendCommand() {
    if (S.sending) return;
    let options;
    try {
      options = collectOptions(true);
    } catch (e) {
      showError(e.msg);
      const pill = $("#option-pills").children[e.i];
      if (pill) { pill.classList.add("invalid"); focusOption(e.i); }
      return;
    }
    S.sending = true;
    S.acSeq++; // a suggestion still on its way must not open a list over the sent command
    clearTimeout(suggest.t);
    closePopup();
    const path = S.cmd.path;
    try {
      const r = await api("POST", "/api/commands", { as: S.me, channel_id: S.channel, command: path, options });
      cancelCommand();
      if (!r.responded) showError(r.error || "The bot did not respond.");
    } catch (e) {
      showError(e.message);
    }
    S.sending = false;
    refresh();
  }

  async function sendText() {
    const input = $("#composer-input");
    const text = input.value.trim();
    if (!text || S.sending) return;
    if (text.startsWith("/")) {
      // "/move" typed in full and Enter: pick the best match.
      if (S.popup && S.popup.items.length) { S.popup.onPick(S.popup.items[S.popup.active]); return; }
      showError("No command " + text.split(/\s/)[0] + ". Type / to see the commands.");
      return;
    }
    S.sending = true;
    try {
      await api("POST", "/api/messages", { as: S.me, channel_id: S.channel, content: text });
      input.value = "";
    } catch (e) { showError(e.message); }
    S.sending = false;
    refresh();
  }

  // popupKey handles the list's keys: the arrows move, Enter picks (and Tab too when tabPicks:
  // the command list; in an option Tab moves on to the next option, as in Discord).
  function popupKey(ev, tabPicks) {
    if (!S.popup || $("#popup").hidden) return false;
    if (ev.key === "ArrowDown") { setActive(S.popup.active + 1); ev.preventDefault(); return true; }
    if (ev.key === "ArrowUp") { setActive(S.popup.active < 0 ? -1 : S.popup.active - 1); ev.preventDefault(); return true; }
    if ((ev.key === "Enter" || (tabPicks && ev.key === "Tab")) && S.popup.items.length && S.popup.active >= 0) {
      ev.preventDefault();
      S.popup.onPick(S.popup.items[S.popup.active]);
      return true;
    }
    return false;
  }

  function optionKey(ev, i) {
    const o = S.cmd.options[i];
    if (ev.key === "Escape") { ev.preventDefault(); if (S.popup) dismissPopup(); else cancelCommand(); return; }
    if (popupKey(ev, false)) return;
    if (ev.key === "Enter") { ev.preventDefault(); sendCommand(); return; }
    if (ev.key === " " && o.def.type === OPT.ATTACHMENT) { ev.preventDefault(); ev.target.click(); return; }
    if (ev.key === "Tab") {
      ev.preventDefault();
      dismissPopup();
      const n = S.cmd.options.length;
      focusOption((i + (ev.shiftKey ? n - 1 : 1)) % n);
      return;
    }
    if (ev.key === "Backspace" && !ev.target.value && !o.text) {
      ev.preventDefault();
      if (i > 0) focusOption(i - 1); else cancelCommand();
    }
  }

  function mainKey(ev) {
    if (ev.key === "Escape") {
      // First the suggestions close; the next Esc clears the command or the text.
      if (S.popup) dismissPopup();
      else if (S.cmd) cancelCommand();
      else { $("#composer-input").value = ""; setHint(""); }
      return;
    }
    if (popupKey(ev, true)) return;
    if (ev.key === "Enter") {
      ev.preventDefault();
      if (S.cmd) sendCommand(); else sendText();
      return;
    }
    if (ev.key === "Backspace" && S.cmd && $("#composer-input").value === "") cancelCommand();
  }

  // ---- navigation ----
  function saveHash() {
    const h = "#u=" + S.me + "&c=" + (S.channel || "");
    if (location.hash !== h) history.replaceState(null, "", h);
    try { localStorage.setItem("me", S.me); } catch (e) { /* private mode */ }
  }

  function switchUser(id) {
    if (id === S.me) return;
    S.me = id;
    S.wantFocus = true;
    S.msgCache = new Map();
    S.modalKey = "";
    welcomeCache = { key: "", el: null };
    $("#messages").replaceChildren();
    if (S.cmd) cancelCommand();
    closeSelect();
    refresh();
  }

  function openChannel(id) {
    if (!id || id === S.channel) return;
    S.channel = id;
    S.wantFocus = true;
    if (S.cmd) cancelCommand();
    closePopup();
    closeSelect();
    refresh();
  }

  async function openDM() {
    try {
      const c = await api("POST", "/api/dm", { as: S.me });
      openChannel(c.id);
    } catch (e) { showError(e.message); }
  }

  // refresh fetches the view for the current user and channel and renders it. With no user
  // (first visit) the server picks the first person.
  async function refresh() {
    const seq = ++S.viewSeq;
    let v;
    try {
      v = await api("GET", "/api/view?as=" + encodeURIComponent(S.me || "") + "&channel=" + encodeURIComponent(S.channel || "") +
        "&ephemeral_after=" + encodeURIComponent(S.ephemeralAfter));
    } catch (e) {
      if (S.me && /unknown user/.test(e.message)) {
        // A user of another playground (an old link): start as the first person.
        S.me = "";
        S.channel = "";
        return refresh();
      }
      showError(e.message);
      return;
    }
    if (seq !== S.viewSeq) return; // a newer view is on its way
    if (S.ephemeralAfter === "now" && v.ephemeral_after) S.ephemeralAfter = v.ephemeral_after;
    S.me = v.me.id;
    apply(v);
  }

  function apply(v) {
    const channelChanged = !S.view || S.view.channel.id !== v.channel.id;
    S.view = v;
    S.version = v.version;
    S.channel = v.channel.id;
    saveHash();
    renderSidebar();
    renderHeader();
    renderMe();
    renderBanner();
    renderThreadState();
    renderMessages();
    renderMembers();
    renderModal();
    markRead(v.channel);
    // After a channel or user switch the box has the focus, ready to type (not over a form).
    if ((channelChanged || S.wantFocus) && !S.cmd && !v.modal) { S.wantFocus = false; $("#composer-input").focus(); }
    document.body.dataset.ready = v.status.state;
    document.body.dataset.me = v.me.name;
    document.body.dataset.channel = v.channel.name;
  }

  async function pollLoop() {
    for (;;) {
      try {
        const r = await api("GET", "/api/poll?since=" + S.version);
        if (r.changed) await refresh();
      } catch (e) {
        await new Promise((res) => setTimeout(res, 1000));
      }
    }
  }

  function init() {
    const params = new URLSearchParams(location.hash.slice(1));
    S.me = params.get("u") || localStorage.getItem("me") || "";
    S.channel = params.get("c") || "";
    const input = $("#composer-input");
    input.addEventListener("input", onMainInput);
    input.addEventListener("keydown", mainKey);
    input.addEventListener("blur", () => { if (!S.cmd) setTimeout(() => { if (document.activeElement !== input) closePopup(); }, 150); });
    $("#composer").addEventListener("submit", (ev) => ev.preventDefault());
    $("#switch-user").addEventListener("click", (ev) => { ev.stopPropagation(); toggleUserMenu(); });
    $("#rail-home").addEventListener("click", openDM);
    $("#rail-server").addEventListener("click", () => { const t = S.view && S.view.channels.find((c) => c.kind === "text"); if (t) openChannel(t.id); });
    $("#lightbox").addEventListener("click", () => { $("#lightbox").hidden = true; });
    document.addEventListener("click", (ev) => {
      if (!$("#user-menu").hidden && !ev.target.closest("#user-panel")) toggleUserMenu(false);
      if (S.openSelect && !ev.target.closest(".select")) closeSelect();
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") {
        if (!$("#lightbox").hidden) $("#lightbox").hidden = true;
        else if (S.view && S.view.modal) dismissModal();
        toggleUserMenu(false);
        closeSelect();
      }
    });
    window.addEventListener("hashchange", () => {
      const p = new URLSearchParams(location.hash.slice(1));
      const u = p.get("u"), c = p.get("c");
      if (u && u !== S.me) switchUser(u);
      if (c && c !== S.channel) openChannel(c);
    });
    // Only the reader unsticks the view from the bottom (wheel, keys, the scrollbar); a scroll
    // that comes from new content, a channel switch or an image loading never does.
    const box = $("#messages");
    let userAt = 0;
    const byUser = () => { userAt = Date.now(); };
    for (const ev of ["wheel", "touchmove", "mousedown", "keydown"]) box.addEventListener(ev, byUser, { passive: true });
    box.addEventListener("scroll", () => {
      if (atBottom()) stick = true;
      else if (Date.now() - userAt < 1000) stick = false;
    });
    // The box grows with a command's options: keep the newest messages in sight.
    if (window.ResizeObserver) new ResizeObserver(() => keepBottom()).observe(box);
    setInterval(tickTimestamps, 1000);
    refresh().then(pollLoop);
  }

  init();
})();
