/// The page `/` of the channel status server: every channel in a table — state, segments, gaps,
/// retries, bytes, the lag behind the live edge, the last error — with its health over the last
/// hour as a strip of sixty minutes (media recorded, a restart, a gap, an outage, a failure,
/// nothing), drawn from `/status` and fetched again every two seconds. No outside resource.
enum ChannelStatusPage {
    static let html = Array("""
    <!doctype html>
    <html lang="en"><head><meta charset="utf-8"><title>tessera channels</title>
    <style>
    body{font:14px system-ui,sans-serif;margin:16px;color:#222;background:#fafafa}
    h1{font-size:18px;margin:0 0 4px}
    #summary{margin:0 0 12px;color:#555}
    table{border-collapse:collapse;width:100%}
    th,td{padding:3px 8px;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
    td.n{text-align:right;font-variant-numeric:tabular-nums}
    td.err{white-space:normal;color:#a00;max-width:30em}
    .strip{display:flex;gap:1px}
    .strip span{width:6px;height:14px;background:#e4e4e4}
    .ok{background:#3a3!important}.restart{background:#36c!important}.gap{background:#e90!important}
    .outage{background:#d40!important}.failed{background:#900!important}
    .state-recording{color:#070}.state-retrying{color:#b60}.state-failed{color:#a00}.state-waiting,.state-stopped,.state-finished{color:#666}
    </style></head><body>
    <h1>tessera channels</h1><p id="summary">loading…</p>
    <table><thead><tr><th>channel</th><th>state</th><th>segments</th><th>gaps</th><th>retries</th><th>restarts</th>
    <th>bytes</th><th>lag</th><th>last hour</th><th>last error</th></tr></thead><tbody id="rows"></tbody></table>
    <script>
    const text = (tag, value, cls) => { const e = document.createElement(tag); e.textContent = value; if (cls) e.className = cls; return e; };
    const bytes = n => n >= 1e9 ? (n / 1e9).toFixed(2) + ' GB' : n >= 1e6 ? (n / 1e6).toFixed(1) + ' MB' : n >= 1e3 ? (n / 1e3).toFixed(1) + ' kB' : n + ' B';
    function row(c, now) {
      const tr = document.createElement('tr');
      tr.dataset.channel = c.name;
      tr.append(text('td', c.name), text('td', c.state, 'state-' + c.state));
      for (const n of [c.segments, c.gaps, c.retries, c.restarts]) tr.append(text('td', String(n), 'n'));
      tr.append(text('td', bytes(c.bytes), 'n'), text('td', c.edgeLag == null ? '' : c.edgeLag.toFixed(1) + ' s', 'n'));
      const strip = document.createElement('div'); strip.className = 'strip';
      c.health.strip.forEach((mark, i) => {
        const s = document.createElement('span');
        if (mark) s.className = mark;
        const at = new Date((c.health.lastMinute - (59 - i) * 60) * 1000);
        s.title = at.toLocaleTimeString() + (mark ? ': ' + mark : '');
        strip.append(s);
      });
      const cell = document.createElement('td'); cell.append(strip); tr.append(cell);
      const retry = c.state === 'retrying' && c.retryAt ? ' (retry in ' + Math.max(0, c.retryAt - now).toFixed(0) + ' s)' : '';
      tr.append(text('td', (c.lastError ? c.lastErrorCode + ': ' + c.lastError : '') + retry, 'err'));
      return tr;
    }
    async function refresh() {
      try {
        const status = await (await fetch('/status', {cache: 'no-store'})).json();
        const counts = {};
        for (const c of status.channels) counts[c.state] = (counts[c.state] || 0) + 1;
        document.getElementById('summary').textContent = status.channels.length + ' channels: ' +
          Object.entries(counts).map(([k, v]) => v + ' ' + k).join(', ') + ' — ' + new Date(status.time * 1000).toLocaleTimeString();
        document.getElementById('rows').replaceChildren(...status.channels.map(c => row(c, status.time)));
        document.body.dataset.loaded = String(status.channels.length);
      } catch (e) {
        document.getElementById('summary').textContent = 'the recorder does not answer: ' + e;
      }
      setTimeout(refresh, 2000);
    }
    refresh();
    </script></body></html>
    """.utf8)
}
