/// The control page served at `GET /__stub/` to a browser: one HTML page, its script and its style, embedded
/// in the binary (no CDN, works offline). It uses only the admin API, shows every value from a request as text
/// (`textContent`, never markup), and its Content-Security-Policy allows only its own script and style, so a
/// request that carries markup cannot run anything even if a value were shown wrongly.
import HTTPEngine
import HTTPMessages
import StubCore

enum ControlPage {
    /// One part of the page, never cached, under the page's policy.
    static func response(_ text: String, type: String) -> HTTPResponse {
        HTTPResponse(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", type), ("Cache-Control", "no-store"),
                ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ]),
            body: Array(text.utf8))
    }

    /// Served with every part of the page.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Stub server</title>
        <link rel="icon" href="/__stub/icon.svg">
        <link rel="stylesheet" href="/__stub/control.css">
        <script src="/__stub/control.js" defer></script>
        </head>
        <body>
        <header>
          <h1>Stub server</h1>
          <label>Server-wide variant <select id="server-variant"></select></label>
          <button id="reset" type="button">Reset</button>
          <button id="reload" type="button">Reload fixtures</button>
          <span id="status" role="status" aria-live="polite"></span>
        </header>
        <section id="reload-info" aria-live="polite">
          <p id="reload-line"></p>
          <ul id="problems"></ul>
        </section>
        <section>
          <h2>Stubs</h2>
          <table id="stubs">
            <thead><tr><th scope="col">Method</th><th scope="col">Route</th><th scope="col">Stub</th>
              <th scope="col">Variant</th><th scope="col">Sequence</th><th scope="col">Scenario</th></tr></thead>
            <tbody></tbody>
          </table>
        </section>
        <section>
          <h2>Requests <small>newest first</small></h2>
          <ol id="requests"></ol>
        </section>
        <section>
          <h2>Unmatched requests</h2>
          <ol id="unmatched"></ol>
        </section>
        </body>
        </html>
        """#

    /// The page's icon, so that the browser does not ask for `/favicon.ico` (which the journal would record).
    static let icon = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#2a6fdb"/></svg>
        """#

    static let css = #"""
        :root { font: 14px/1.45 system-ui, sans-serif; color-scheme: light dark; }
        body { margin: 0 auto; max-width: 1200px; padding: 0 1rem 2rem; }
        header { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
        h1 { font-size: 1.3rem; margin-right: auto; }
        h2 { font-size: 1.1rem; margin-top: 1.5rem; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #8884; vertical-align: top; }
        code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; }
        pre { white-space: pre-wrap; word-break: break-all; max-height: 20rem; overflow: auto; background: #8881;
          padding: .5rem; margin: .25rem 0; }
        ol { padding-left: 0; list-style: none; }
        li { border-bottom: 1px solid #8884; padding: .2rem 0; }
        summary { cursor: pointer; }
        .ok { color: #197a19; } .error { color: #c02020; } .muted { opacity: .7; }
        #problems li { color: #c02020; border: none; }
        :focus-visible { outline: 2px solid #2a6fdb; outline-offset: 2px; }
        """#

    static let script = #"""
        "use strict";

        const state = { lastID: 0, catalogKey: "", rows: new Map(), lastReload: "" };

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
            const row = el("tr", { "data-stub": stub.name },
              el("td", { className: "mono", text: stub.method }), el("td", { className: "mono", text: stub.route }),
              el("td", { text: stub.name }), el("td", {}, picker), sequence, scenario);
            body.append(row);
            state.rows.set(stub.name, { picker, sequence, scenario });
          }
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
            row.sequence.textContent = stub.sequence
              ? stub.sequenceCalls + " of " + stub.sequence.join(", ") : "";
            row.scenario.textContent = stub.scenario
              ? stub.scenario.name + ": " + stub.scenario.state : "";
          }
          const server = document.getElementById("server-variant");
          if (document.activeElement !== server) server.value = list.serverVariant || "";
        }

        async function refreshStubs() {
          const list = await api("stubs");
          const key = list.stubs.map(stub => stub.name + ":" + stub.variants.join(",")).join("|");
          if (key !== state.catalogKey) {
            state.catalogKey = key;
            buildStubs(list);
          }
          updateStubs(list);
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
          return el("li", {}, details);
        }

        function unmatchedItem(entry) {
          return el("li", { "data-id": String(entry.id) },
            el("p", { className: "mono request-line", text: requestLine(entry) }),
            missTable(entry.closest || []));
        }

        async function refreshRequests() {
          const page = await api("journal?after=" + state.lastID);
          const requests = document.getElementById("requests");
          const unmatched = document.getElementById("unmatched");
          for (const entry of page.entries) {
            state.lastID = Math.max(state.lastID, entry.id);
            requests.prepend(requestItem(entry));
            if (entry.closest) unmatched.prepend(unmatchedItem(entry));
          }
          return page.entries.length;
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
        """#
}
