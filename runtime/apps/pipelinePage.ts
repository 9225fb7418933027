// The pipeline view: one self-contained HTML page a host that renders MCP Apps shows in a
// sandboxed frame beside a get_pipeline or get_pipeline_failure answer. It draws what the
// tool result the host hands it says (the same facts the model reads), asks the host to
// call get_step_logs and search_logs for log lines, and never reaches the network itself.
//
// The script speaks the extension's postMessage JSON-RPC by hand: ext-apps' App class
// bundles the MCP SDK and zod (about 540 kB); this page needs five messages
// (docs/performance.md has both sizes). Every pushed string (commit message, title,
// branch, author, step name, log line) reaches the page through textContent, never as
// markup, and the page's own CSP admits only this script and this style by their hashes.

/** The page's style: host theme variables where the host gives them, plain defaults otherwise. */
export const PIPELINE_STYLE = String.raw`
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--bg2:var(--color-background-secondary,#f6f8fa);--fg:var(--color-text-primary,#1f2328);--fg2:var(--color-text-secondary,#59636e);--line:var(--color-border-primary,#d1d9e0);--ok:var(--color-text-success,#1a7f37);--bad:var(--color-text-danger,#cf222e);--run:var(--color-text-info,#0969da);--wait:var(--color-text-warning,#9a6700);--mono:var(--font-mono,ui-monospace,SFMono-Regular,Menlo,monospace)}
[data-theme=dark]{--bg:var(--color-background-primary,#0d1117);--bg2:var(--color-background-secondary,#161b22);--fg:var(--color-text-primary,#e6edf3);--fg2:var(--color-text-secondary,#9198a1);--line:var(--color-border-primary,#3d444d);--ok:var(--color-text-success,#3fb950);--bad:var(--color-text-danger,#f85149);--run:var(--color-text-info,#4493f8);--wait:var(--color-text-warning,#d29922)}
*{box-sizing:border-box}body{margin:0;padding:12px;font:14px/1.45 var(--font-sans,system-ui,sans-serif);background:var(--bg);color:var(--fg)}
h1{font-size:16px;margin:0 0 4px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.meta,.dim{color:var(--fg2);font-size:12px}.msg{margin:6px 0 10px;white-space:pre-wrap;overflow-wrap:anywhere}
.badge{font-size:12px;padding:1px 8px;border-radius:10px;border:1px solid currentColor}
.success{color:var(--ok)}.failure,.error,.killed,.declined{color:var(--bad)}.running,.started{color:var(--run)}.pending,.blocked{color:var(--wait)}.skipped,.canceled{color:var(--fg2)}
a{color:var(--run)}.wf{border:1px solid var(--line);border-radius:6px;margin:8px 0;overflow:hidden}
.wf>header{background:var(--bg2);padding:6px 10px;font-weight:600;display:flex;gap:8px}
.step{display:grid;grid-template-columns:14px 1fr auto auto auto;gap:10px;align-items:center;width:100%;padding:5px 10px;border:0;border-top:1px solid var(--line);background:none;color:inherit;font:inherit;text-align:left;cursor:pointer}
.step:hover,.step.open{background:var(--bg2)}.dot{width:10px;height:10px;border-radius:50%;background:currentColor}
.log{margin:8px 0;border:1px solid var(--line);border-radius:6px}.log>header{padding:6px 10px;background:var(--bg2);display:flex;gap:8px;flex-wrap:wrap;align-items:center}
.find{display:flex;gap:6px;margin-left:auto}input{font:inherit;padding:2px 6px;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:4px}
button.act{font:inherit;padding:2px 10px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
pre{margin:0;padding:8px 10px;font:12px/1.5 var(--mono);overflow:auto;max-height:360px;white-space:pre-wrap;overflow-wrap:anywhere}
.n{display:inline-block;min-width:4ch;margin-right:1ch;color:var(--fg2);text-align:right;user-select:none}.hit{background:rgba(212,167,44,.25)}
.err{color:var(--bad);margin:6px 0}.review{border:1px solid var(--wait);border-radius:6px;padding:8px 12px;margin:8px 0}
.review h2{font-size:14px;margin:0 0 6px;color:var(--wait)}dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:0 0 8px}dt{color:var(--fg2)}dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.config{border:1px solid var(--line);border-radius:4px;margin:4px 0 8px;max-height:240px}.actions{display:flex;gap:10px;align-items:center}.log>.dim,.log>.err{padding:4px 10px 0}
`;

/** The page's script. ES5-style on purpose: no build step, no template strings to escape. */
export const PIPELINE_SCRIPT = String.raw`
(function () {
  'use strict';
  var base = document.body.getAttribute('data-woodpecker') || '';
  var FAILED = { failure: 1, error: 1, killed: 1 };
  var nextId = 1, pending = {}, input = {}, root = document.getElementById('view');

  function post(message) { window.parent.postMessage(message, '*'); }
  function request(method, params) {
    var id = nextId++;
    post({ jsonrpc: '2.0', id: id, method: method, params: params });
    return new Promise(function (resolve, reject) { pending[id] = { resolve: resolve, reject: reject }; });
  }
  function notify(method, params) { post({ jsonrpc: '2.0', method: method, params: params || {} }); }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent) return;
    var m = event.data;
    if (!m || m.jsonrpc !== '2.0') return;
    if (m.method === undefined && m.id !== undefined) {
      var waiting = pending[m.id];
      if (!waiting) return;
      delete pending[m.id];
      if (m.error) waiting.reject(new Error(m.error.message || 'the host refused'));
      else waiting.resolve(m.result);
    } else if (m.method === 'ui/notifications/tool-input') {
      input = (m.params && m.params.arguments) || {};
    } else if (m.method === 'ui/notifications/tool-result') {
      show(m.params);
    } else if (m.method === 'ui/notifications/host-context-changed') {
      theme(m.params);
    } else if (m.id !== undefined) {
      var known = m.method === 'ping' || m.method === 'ui/resource-teardown';
      post(known ? { jsonrpc: '2.0', id: m.id, result: {} }
        : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
    }
  });

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, tag, cls, text) { return parent.appendChild(el(tag, cls, text)); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function theme(context) {
    if (!context) return;
    if (context.theme) document.documentElement.setAttribute('data-theme', context.theme);
    var vars = context.styles && context.styles.variables;
    if (vars) for (var key in vars) if (vars[key]) document.documentElement.style.setProperty(key, vars[key]);
  }

  function dataOf(result) {
    if (!result) return null;
    if (result.structuredContent) return result.structuredContent;
    var blocks = result.content || [];
    for (var i = 0; i < blocks.length; i++) {
      if (blocks[i].type !== 'text') continue;
      try { return JSON.parse(blocks[i].text); } catch (e) { return null; }
    }
    return null;
  }
  function callTool(name, args) {
    return request('tools/call', { name: name, arguments: args }).then(function (result) {
      if (result && result.isError) {
        var text = (result.content && result.content[0] && result.content[0].text) || name + ' failed';
        throw new Error(text);
      }
      return dataOf(result) || {};
    });
  }

  function duration(item) {
    // The answer's view says how long it ran ("took"); Woodpecker's full object has times.
    if (typeof item.took === 'string') return item.took;
    if (typeof item.started !== 'number' || typeof item.finished !== 'number') return '';
    if (item.finished < item.started) return '';
    var s = item.finished - item.started, m = Math.floor(s / 60);
    return m ? m + 'm ' + (s % 60) + 's' : s + 's';
  }
  function pageUrl(repoId, number, pid) {
    if (!base || !repoId || !number) return '';
    return base + '/repos/' + Number(repoId) + '/pipeline/' + Number(number) + (pid ? '/' + Number(pid) : '');
  }
  function link(parent, url, text) {
    if (!url) return;
    var a = add(parent, 'a', '', text);
    a.href = url;
    a.target = '_blank';
    a.rel = 'noopener';
    a.addEventListener('click', function (event) {
      event.preventDefault();
      request('ui/open-link', { url: url }).catch(function () {});
    });
  }
  // Log lines come as texts numbered from first_line (or by line_numbers).
  function numbered(texts, first, numbers) {
    var list = [];
    for (var i = 0; i < (texts || []).length; i++)
      list.push({ line: numbers ? numbers[i] : (first || 0) + i, text: texts[i] });
    return list;
  }
  function lines(pre, list, hit) {
    clear(pre);
    for (var i = 0; i < list.length; i++) {
      var row = add(pre, 'div', hit ? 'hit' : '');
      add(row, 'span', 'n', list[i].line);
      row.appendChild(document.createTextNode(String(list[i].text)));
    }
    if (!list.length) add(pre, 'div', 'dim', 'No lines.');
  }

  function show(result) {
    var data = dataOf(result);
    clear(root);
    if (!data || result.isError) {
      add(root, 'p', 'err', (result && result.content && result.content[0] && result.content[0].text) || 'No pipeline in this answer.');
      return;
    }
    if (Array.isArray(data.failed_steps)) failure(data); else pipeline(data);
  }

  function header(repoId, data) {
    var h = add(root, 'h1');
    h.appendChild(document.createTextNode('Pipeline #' + Number(data.number)));
    add(h, 'span', 'badge ' + data.status, data.status);
    var facts = [data.event, data.branch, data.commit && String(data.commit).slice(0, 8), data.author]
      .filter(function (x) { return x; });
    if (facts.length) add(root, 'div', 'meta', facts.join(' · '));
    if (data.title) add(root, 'div', 'msg', data.title);
    else if (data.message) add(root, 'div', 'msg', String(data.message).trim());
    link(add(root, 'div', 'meta'), pageUrl(repoId, data.number), 'Open in Woodpecker');
  }

  function pipeline(data) {
    var repoId = input.repo_id;
    header(repoId, data);
    if (data.status === 'blocked') review(Number(repoId), data);
    (data.errors || []).forEach(function (e) { add(root, 'div', 'err', e.message || e); });
    var first = null, workflows = data.workflows || [];
    workflows.forEach(function (wf) {
      var box = add(root, 'section', 'wf');
      var head = add(box, 'header');
      add(head, 'span', wf.state, wf.name);
      add(head, 'span', 'dim', [wf.state, duration(wf)].filter(Boolean).join(' · '));
      (wf.children || wf.steps || []).forEach(function (step) {
        var row = add(box, 'button', 'step');
        row.type = 'button';
        add(row, 'span', 'dot ' + step.state);
        add(row, 'span', '', step.name);
        add(row, 'span', step.state, step.state);
        add(row, 'span', 'dim', step.exit_code ? 'exit ' + step.exit_code : '');
        add(row, 'span', 'dim', duration(step));
        var open = function () { openStep(repoId, data.number, step, row, null); };
        row.addEventListener('click', open);
        if (!first && FAILED[step.state]) first = open;
      });
    });
    if (first) first();
  }

  function failure(data) {
    header(data.repo_id, data);
    if (data.summary) add(root, 'div', 'msg', data.summary);
    data.failed_steps.forEach(function (step) {
      openStep(data.repo_id, data.number, { id: step.step_id, name: step.name, state: step.state, exit_code: step.exit_code, error: step.error }, null, numbered(step.log_tail, step.first_line, step.line_numbers));
    });
  }

  // A blocked pipeline: what a person weighs before approving. The button asks the host to
  // call approve_pipeline, and the server then asks the person in its own dialog (or
  // answers with a confirmation token): a click here is never the approval itself.
  function review(repoId, data) {
    var box = add(root, 'section', 'review');
    add(box, 'h2', '', 'Waiting for approval');
    var list = add(box, 'dl');
    function fact(name, value) { add(list, 'dt', '', name); return add(list, 'dd', '', value); }
    fact('From a fork', data.from_fork ? 'yes: its code and configuration come from outside the repository' : 'no');
    fact('Opened by', [data.author, data.sender && data.sender !== data.author ? '(sent by ' + data.sender + ')' : ''].filter(Boolean).join(' ') || 'unknown');
    fact('Event', [data.event, data.ref].filter(Boolean).join(' · '));
    var files = data.changed_files || [];
    fact('Changed files', files.length ? files.join('\n') : 'none reported');
    var secrets = fact('Secrets its event could reach', 'Reading the secret lists…');
    add(box, 'div', 'dim', 'The configuration it would run:');
    var config = add(box, 'pre', 'config', 'Loading…');
    var actions = add(box, 'div', 'actions');
    var approve = add(actions, 'button', 'act', 'Approve…');
    approve.type = 'button';
    var outcome = add(actions, 'span', 'dim', 'The server asks you to confirm before anything runs.');
    approve.addEventListener('click', function () {
      approve.disabled = true;
      outcome.textContent = 'Asking the server; confirm or decline in its dialog…';
      request('tools/call', { name: 'approve_pipeline', arguments: { repo_id: repoId, number: Number(data.number) } })
        .then(function (result) {
          var text = (result && result.content && result.content[0] && result.content[0].text) || '';
          outcome.textContent = (result && result.isError ? 'Not approved: ' : 'Answer: ') + text.slice(0, 400);
        }, function (error) { outcome.textContent = 'Not approved: ' + error.message; })
        .then(function () { approve.disabled = false; });
    });
    callTool('get_pipeline_config', { repo_id: repoId, number: Number(data.number) }).then(function (answer) {
      config.textContent = (answer.files || []).map(function (file) {
        return '# ' + file.name + '\n' + file.content;
      }).join('\n') || 'No configuration stored.';
    }, function (error) { config.textContent = error.message; });
    reachable(repoId, data.event).then(function (found) {
      secrets.textContent = (found.names.length ? found.names.join(', ') : 'none') +
        (found.unreadable.length ? ' (could not read all of the ' + found.unreadable.join(' and ') + ' list)' : '');
    });
  }

  // Names only: list_secrets never returns values. A secret is reachable as Woodpecker's
  // compiler decides: no events means every event, and the pull-request events count as
  // one (any of them listed reaches any of them; PULL is the family in
  // runtime/core/woodpeckerEvents.ts, held to it by test/unit/mcp/apps.test.ts). A full page may hide more secrets, so
  // that level is reported as not wholly read.
  var PULL = ['pull_request', 'pull_request_closed', 'pull_request_metadata'];
  function reaches(events, event) {
    if (!events.length || events.indexOf(event) >= 0) return true;
    return PULL.indexOf(event) >= 0 && events.some(function (e) { return PULL.indexOf(e) >= 0; });
  }
  function reachable(repoId, event) {
    var names = [], unreadable = [];
    function level(name, args) {
      return callTool('list_secrets', args).then(function (answer) {
        var items = answer.items || [];
        if (items.length >= 50) unreadable.push(name);
        items.forEach(function (secret) {
          if (reaches(secret.events || [], event)) names.push(secret.name + ' (' + name + ')');
        });
      }, function () { unreadable.push(name); });
    }
    return callTool('get_repository', { repo_id: repoId }).then(function (repo) { return repo.org_id; }, function () { return 0; })
      .then(function (orgId) {
        var levels = [level('repository', { scope: 'repository', repo_id: repoId, per_page: 50 })];
        if (orgId) levels.push(level('organization', { scope: 'organization', org_id: orgId, per_page: 50 }));
        levels.push(level('instance', { scope: 'global', per_page: 50 }));
        return Promise.all(levels);
      }).then(function () { return { names: names, unreadable: unreadable }; });
  }

  var panel = null;
  function openStep(repoId, number, step, row, tail) {
    if (row) {
      var rows = root.querySelectorAll('.step.open');
      for (var i = 0; i < rows.length; i++) rows[i].classList.remove('open');
      row.classList.add('open');
      if (panel) panel.remove();
    }
    var box = el('section', 'log');
    if (row) { panel = box; row.parentNode.parentNode.insertBefore(box, row.parentNode.nextSibling); }
    else root.appendChild(box);
    var head = add(box, 'header');
    add(head, 'strong', '', step.name);
    add(head, 'span', step.state, step.state + (step.exit_code ? ' (exit ' + step.exit_code + ')' : ''));
    // No <form>: a frame sandboxed without allow-forms drops the submit event.
    var form = add(head, 'div', 'find');
    var query = add(form, 'input');
    query.placeholder = 'Search this log';
    query.setAttribute('aria-label', 'Search the log of ' + step.name);
    var button = add(form, 'button', 'act', 'Search');
    button.type = 'button';
    if (step.error) add(box, 'div', 'err', step.error);
    var note = add(box, 'div', 'dim');
    var pre = add(box, 'pre');
    function tailShown(list) { note.textContent = 'Last ' + list.length + ' lines'; lines(pre, list, false); }
    function search() {
      var pattern = query.value;
      if (!pattern) { note.textContent = ''; return; }
      note.textContent = 'Searching…';
      callTool('search_logs', { repo_id: Number(repoId), number: Number(number), step_id: step.id, pattern: pattern, context: 0 })
        .then(function (found) {
          var matches = found.matches || [];
          note.textContent = matches.length + ' matching line' + (matches.length === 1 ? '' : 's') + (found.limited ? ' (more not shown)' : '');
          lines(pre, matches, true);
        }, function (error) { note.textContent = error.message; });
    }
    button.addEventListener('click', search);
    query.addEventListener('keydown', function (event) { if (event.key === 'Enter') search(); });
    if (tail) { tailShown(tail); return; }
    note.textContent = 'Loading the log…';
    callTool('get_step_logs', { repo_id: Number(repoId), number: Number(number), step_id: step.id, from: 'tail', limit: 50 })
      .then(function (log) { tailShown(numbered(log.lines, log.first_line, log.line_numbers)); }, function (error) { note.textContent = error.message; });
  }

  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(function () {
      // The body's own height: the root element is never shorter than the frame.
      notify('ui/notifications/size-changed', { height: Math.ceil(document.body.getBoundingClientRect().height) });
    }).observe(document.body);
  }
  request('ui/initialize', {
    appInfo: { name: 'woodpecker-ci-mcp pipeline view', version: '1' },
    appCapabilities: {},
    protocolVersion: '2026-01-26'
  }).then(function (result) {
    theme(result && result.hostContext);
    notify('ui/notifications/initialized', {});
  }, function () {});
})();
`;
