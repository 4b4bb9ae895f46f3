"use strict";

const state = { lastID: 0, catalogKey: "", rows: new Map(), lastReload: "", live: new Set() };

async function api(path, options) {
  const response = await fetch("/__stub/" + path, options);
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error || ("HTTP " + response.status));
  return body;
}

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "text") node.textContent = value;
    else if (key === "className") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function say(text, isError) {
  const status = document.getElementById("status");
  status.textContent = text;
  status.className = isError ? "error" : "muted";
}

function bodyText(base64) {
  if (!base64) return "";
  const bytes = Uint8Array.from(atob(base64), c => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function clock(iso) {
  const date = new Date(iso);
  return isNaN(date) ? "" : date.toLocaleTimeString();
}

// Choices go to the server one after another, in the order they were made: two quick key presses must
// not race on two connections and land in the wrong order.
let pending = Promise.resolve();
function choose(path, variant) {
  pending = pending.then(() => send(path, variant));
  return pending;
}

async function send(path, variant) {
  try {
    if (variant === "") await api(path, { method: "DELETE" });
    else await api(path, { method: "PUT", headers: { "Content-Type": "application/json" },
                           body: JSON.stringify({ variant }) });
    say(variant === "" ? "choice cleared" : "now answering " + variant, false);
    await refreshStubs();
  } catch (error) { say(error.message, true); }
}

function variantPicker(label, variants, onChange) {
  const select = el("select", { "aria-label": label });
  select.append(el("option", { value: "", text: "(automatic)" }));
  for (const name of variants) select.append(el("option", { value: name, text: name }));
  select.addEventListener("change", () => onChange(select.value));
  return select;
}

// A box per stub to answer one of its mutants by ID (the hostile versions of its answer, as `stub-server
// mutations` lists them): the IDs of the stub's variant are offered as the box is typed in; an ID the variant has
// no mutant of is refused here, naming the nearest; an empty box clears the choice.
function mutantBox(stub) {
  const path = "stubs/" + encodeURIComponent(stub.name);
  const list = el("datalist", { id: "mutants-" + stub.name });
  const input = el("input", { type: "text", list: list.id, placeholder: "mutant ID",
                              "aria-label": "Mutant of " + stub.name, className: "mono" });
  let ids = null;
  async function known() {
    if (ids) return ids;
    const mutants = await api(path + "/mutations");
    ids = mutants.map(mutant => mutant.id);
    list.replaceChildren(...mutants.map(m => el("option", { value: m.id, text: m.description })));
    return ids;
  }
  input.addEventListener("focus", () => { known().catch(error => say(error.message, true)); });
  const button = el("button", { type: "button", text: "Answer" });
  button.addEventListener("click", async () => {
    const id = input.value.trim();
    pending = pending.then(async () => {
      try {
        if (id === "") {
          await api(path + "/mutation", { method: "DELETE" });
          say("no mutant for " + stub.name, false);
        } else {
          const all = await known();
          if (!all.includes(id)) {
            const near = nearest(id, all);
            say(stub.name + " has no mutant " + id + (near.length ? "; nearest: " + near.join(", ") : ""), true);
            return;
          }
          await api(path + "/mutation", { method: "PUT", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify({ mutation: id }) });
          say(stub.name + " answers its mutant " + id, false);
        }
        await refreshStubs();
      } catch (error) { say(error.message, true); }
    });
  });
  // The variant changes which mutants there are: list them again when asked next.
  return { cell: el("td", {}, input, list, button), input, forget: () => { ids = null; } };
}

// The three IDs sharing the longest start with `id`, the nearest in length first (as the server's 400 says).
function nearest(id, ids) {
  const shared = other => { let n = 0; while (n < id.length && id[n] === other[n]) n++; return n; };
  return [...ids].sort((a, b) => shared(b) - shared(a) || Math.abs(a.length - id.length) - Math.abs(b.length - id.length))
    .slice(0, 3);
}

function buildStubs(list) {
  const body = document.querySelector("#stubs tbody");
  body.replaceChildren();
  state.rows.clear();
  for (const stub of list.stubs) {
    const picker = variantPicker("Variant of " + stub.name, stub.variants,
      value => choose("stubs/" + encodeURIComponent(stub.name) + "/variant", value));
    picker.dataset.stub = stub.name;
    const sequence = el("td", { className: "mono" });
    const scenario = el("td", { className: "mono" });
    const served = el("td", { className: "mono served" });
    const mutant = mutantBox(stub);
    const row = el("tr", { "data-stub": stub.name },
      el("td", { className: "mono", text: stub.method }), el("td", { className: "mono", text: stub.route }),
      el("td", { text: stub.name }), el("td", {}, picker), mutant.cell, served, sequence, scenario);
    body.append(row);
    state.rows.set(stub.name, { picker, mutant, served, sequence, scenario });
  }
  buildResources(list.stubs.filter(stub => stub.resource).map(stub => stub.name));
  const names = new Set(list.stubs.flatMap(stub => stub.variants));
  const server = variantPicker("Server-wide variant", [...names].sort(), value => choose("variant", value));
  server.id = "server-variant";
  document.getElementById("server-variant").replaceWith(server);
}

function updateStubs(list) {
  for (const stub of list.stubs) {
    const row = state.rows.get(stub.name);
    if (!row) continue;
    if (document.activeElement !== row.picker) row.picker.value = stub.choice || "";
    if (row.choice !== stub.choice) row.mutant.forget();
    row.choice = stub.choice;
    if (document.activeElement !== row.mutant.input) row.mutant.input.value = stub.mutation || "";
    row.sequence.textContent = stub.sequence
      ? stub.sequenceCalls + " of " + stub.sequence.join(", ") : "";
    row.scenario.textContent = stub.scenario
      ? stub.scenario.name + ": " + stub.scenario.state : "";
    showServed(row.served, stub);
  }
  const variants = list.stubs.flatMap(stub => stub.variants.map(name => stub.served[name] || 0));
  const mutants = list.stubs.reduce((sum, stub) => sum + stub.servedMutants, 0);
  document.getElementById("served-summary").textContent = variants.filter(count => count > 0).length + " of "
    + variants.length + " variants served since the server started"
    + (mutants > 0 ? "; " + mutants + (mutants === 1 ? " mutant" : " mutants") : "");
  const server = document.getElementById("server-variant");
  if (document.activeElement !== server) server.value = list.serverVariant || "";
}

// Each variant of a stub with how many times it answered as written (a variant never served is marked, for a
// screen reader too), then the mutants served.
function showServed(cell, stub) {
  cell.replaceChildren(...stub.variants.map(name => {
    const count = stub.served[name] || 0;
    return count > 0
      ? el("span", { "data-variant": name, text: name + " ×" + count, title: name + ": served " + count + " times" })
      : el("span", { "data-variant": name, className: "unserved", text: name, title: name + ": never served" });
  }));
  if (stub.servedMutants > 0) cell.append(el("span", { text: "mutants ×" + stub.servedMutants }));
}

// Each resource's items as JSON in a text box: shown as the server holds them unless the box is being edited;
// Save replaces them (PUT /__stub/resources/NAME), and a refusal says which item and field.
function buildResources(names) {
  const holder = document.getElementById("resources");
  holder.replaceChildren();
  state.resources = new Map();
  document.getElementById("resources-section").hidden = names.length === 0;
  for (const name of names) {
    const box = el("textarea", { "aria-label": "Items of " + name, rows: "8", className: "mono", spellcheck: "false" });
    box.addEventListener("input", () => { box.dataset.edited = "true"; });
    const save = el("button", { type: "button", text: "Save " + name });
    save.addEventListener("click", () => saveResource(name, box));
    holder.append(el("div", { className: "resource", "data-resource": name }, el("h3", { text: name }), box, save));
    state.resources.set(name, box);
  }
}

async function refreshResources() {
  for (const [name, box] of state.resources || []) {
    if (box.dataset.edited === "true" || document.activeElement === box) continue;
    const items = await api("resources/" + encodeURIComponent(name));
    box.value = JSON.stringify(items, null, 2);
  }
}

async function saveResource(name, box) {
  pending = pending.then(async () => {
    try {
      await api("resources/" + encodeURIComponent(name),
        { method: "PUT", headers: { "Content-Type": "application/json" }, body: box.value });
      delete box.dataset.edited;
      say(name + " saved", false);
      await refreshResources();
    } catch (error) { say(error.message, true); }
  });
  return pending;
}

async function refreshStubs() {
  const list = await api("stubs");
  const key = list.stubs.map(stub => stub.name + ":" + stub.variants.join(",")).join("|");
  if (key !== state.catalogKey) {
    state.catalogKey = key;
    buildStubs(list);
  }
  updateStubs(list);
  await refreshResources();
}

function missTable(closest) {
  const table = el("table", { className: "near-miss" },
    el("thead", {}, el("tr", {}, el("th", { text: "Stub" }), el("th", { text: "Field" }),
      el("th", { text: "Expected" }), el("th", { text: "Got" }))));
  const body = el("tbody");
  for (const miss of closest) {
    for (const field of miss.mismatches) {
      body.append(el("tr", {}, el("td", { text: miss.stub }), el("td", { className: "mono", text: field.field }),
        el("td", { className: "mono", text: field.expected }), el("td", { className: "mono", text: field.actual })));
    }
  }
  table.append(body);
  return table;
}

function requestLine(entry) {
  const query = (entry.query || []).map(item => item.name + "=" + item.value).join("&");
  return entry.method + " " + entry.path + (query ? "?" + query : "");
}

function outcome(entry) {
  if (entry.fault) return "fault " + entry.fault;
  if (entry.status == null) return "";
  return String(entry.status);
}

function requestItem(entry) {
  const answered = entry.stub ? entry.stub + " / " + (entry.variant || "") : (entry.forwarded || "no stub");
  const summary = el("summary", {},
    el("span", { className: "muted", text: clock(entry.time) + " " }),
    el("span", { className: "mono request-line", text: requestLine(entry) }),
    " \u2192 ", el("span", { text: answered + " " }),
    el("span", { className: entry.status >= 200 && entry.status < 400 ? "ok" : "error", text: outcome(entry) }));
  const headers = el("table", { className: "headers" });
  for (const field of entry.headers) {
    headers.append(el("tr", {}, el("th", { className: "mono", text: field.name }),
      el("td", { className: "mono", text: field.value })));
  }
  const details = el("details", { "data-id": String(entry.id) }, summary, headers);
  const text = bodyText(entry.body);
  if (text) details.append(el("pre", { className: "body", text }));
  if (entry.draw) details.append(el("p", { className: "mono", text: "drew " + JSON.stringify(entry.draw) }));
  if (entry.closest) details.append(missTable(entry.closest));
  if (entry.contractViolations) details.append(violationList(entry.contractViolations));
  if (entry.stream) details.append(streamSection(entry));
  return el("li", { "data-entry": String(entry.id) }, details);
}

/// Whether a stream's entry may still change: events not yet all sent, a socket not yet closed.
function isLive(entry) {
  return (entry.stream === "events" && entry.eventsSent == null)
    || (entry.stream === "webSocket" && entry.webSocketClose == null && entry.status === 101);
}

function streamSection(entry) {
  const section = el("div", { className: "stream" });
  if (entry.stream === "events") {
    section.append(el("p", { className: "mono",
      text: entry.eventsSent == null ? "streaming events\u2026" : entry.eventsSent + " events sent" }));
    return section;
  }
  const messages = el("ol", { className: "messages mono" });
  for (const message of entry.webSocketMessages || []) {
    const text = message.text != null ? message.text : "(" + bodyText(message.binary).length + " bytes binary)";
    messages.append(el("li", { className: message.direction, text: (message.direction === "sent" ? "\u2192 " : "\u2190 ") + text }));
  }
  section.append(messages, el("p", { className: "mono",
    text: entry.webSocketClose == null ? "open" : "closed: " + entry.webSocketClose }));
  return section;
}

function violationList(violations) {
  return el("ul", { className: "violations" },
    ...violations.map(text => el("li", { className: "mono error", text })));
}

function unmatchedItem(entry) {
  const item = el("li", { "data-id": String(entry.id) },
    el("p", { className: "mono request-line", text: requestLine(entry) }));
  if (entry.contractViolations) {
    item.append(el("p", { text: "answered by " + entry.stub + ", but the API's contract refuses it:" }),
      violationList(entry.contractViolations));
  } else {
    item.append(missTable(entry.closest || []));
  }
  return item;
}

async function refreshRequests() {
  // Streams still going are read again from the oldest of them, and their items replaced as they change.
  const after = state.live.size ? Math.min(state.lastID, Math.min(...state.live) - 1) : state.lastID;
  const page = await api("journal?after=" + after);
  const requests = document.getElementById("requests");
  const unmatched = document.getElementById("unmatched");
  let added = 0;
  for (const entry of page.entries) {
    if (entry.id <= state.lastID) {
      if (!state.live.has(entry.id)) continue;
      const shown = requests.querySelector('[data-entry="' + entry.id + '"]');
      const open = shown && shown.querySelector("details").open;
      const item = requestItem(entry);
      item.querySelector("details").open = open;
      if (shown) shown.replaceWith(item);
    } else {
      state.lastID = entry.id;
      added += 1;
      requests.prepend(requestItem(entry));
      if (entry.closest || entry.contractViolations) unmatched.prepend(unmatchedItem(entry));
    }
    if (isLive(entry)) state.live.add(entry.id); else state.live.delete(entry.id);
  }
  return added;
}

function showReload(report) {
  const key = report ? JSON.stringify(report) : "";
  if (key === state.lastReload) return;
  state.lastReload = key;
  const line = document.getElementById("reload-line");
  const problems = document.getElementById("problems");
  problems.replaceChildren();
  if (!report) { line.textContent = ""; return; }
  const changed = report.changed && report.changed.length ? " (" + report.changed.join(", ") + ")" : "";
  if (report.succeeded) {
    line.textContent = "Reloaded at " + clock(report.time) + changed + ": " + report.stubs + " stubs";
    line.className = "ok";
  } else {
    line.textContent = "Reload failed at " + clock(report.time) + changed + ": " + report.problems.length
      + " problems; still serving the previous " + report.stubs + " stubs";
    line.className = "error";
    for (const problem of report.problems) {
      problems.append(el("li", { className: "mono",
        text: problem.file + ": " + problem.keyPath + ": " + problem.message }));
    }
  }
}

async function tick() {
  try {
    const health = await api("health");
    showReload(health.lastReload);
    if (await refreshRequests() > 0 || health.stubs !== state.rows.size) await refreshStubs();
  } catch (error) { say("server unreachable: " + error.message, true); }
  setTimeout(tick, 500);
}

document.addEventListener("DOMContentLoaded", async () => {
  document.getElementById("reset").addEventListener("click", async () => {
    try {
      await api("reset", { method: "POST" });
      document.getElementById("requests").replaceChildren();
      document.getElementById("unmatched").replaceChildren();
      for (const box of (state.resources || new Map()).values()) delete box.dataset.edited;
      say("reset", false);
      await refreshStubs();
    } catch (error) { say(error.message, true); }
  });
  document.getElementById("reload").addEventListener("click", async () => {
    try {
      const result = await api("reload", { method: "POST" });
      say("reloaded: " + result.stubs + " stubs", false);
    } catch (error) { say(error.message, true); }
  });
  await refreshStubs().catch(error => say(error.message, true));
  tick();
});
