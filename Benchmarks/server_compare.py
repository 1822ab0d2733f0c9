#!/usr/bin/env python3
"""Preflight's server and MobSF's, side by side, on the same .ipa files, one at a time.

For each file: the time from the start of the upload to a finished scan through each server's
REST API (Preflight: POST /api/v1/uploads, then GET /api/v1/uploads/ID until done or failed;
MobSF: POST /api/v1/upload, then POST /api/v1/scan, which answers when the analysis is over),
the peak resident memory of each server's whole process tree during that scan (sampled from
/proc every 20 ms), and each one's verdict (Preflight's errors and warnings, or the failed
scan's reason; MobSF's security score and high-severity count).

Usage: Benchmarks/server_compare.py IPA_FOLDER
  PREFLIGHT_BIN  a preflight built with the Server trait (default .build-pg/debug/preflight)
  MOBSF          MobSF's `mobsf` launcher (pip install mobsf==4.4.0 in a virtualenv); without
                 it only Preflight is measured.
Nothing here is a timed test: it prints a table to paste into docs/server.md.
"""
import json, os, re, shutil, subprocess, sys, tempfile, threading, time, urllib.request, uuid

def tree_rss_kib(root_pid):
    """Resident memory of a process and all its descendants, in KiB."""
    children = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(pid))
        except OSError:
            pass
    total, stack = 0, [root_pid]
    while stack:
        pid = stack.pop()
        stack += children.get(pid, [])
        try:
            with open(f"/proc/{pid}/status") as f:
                m = re.search(r"VmRSS:\s+(\d+)", f.read())
                total += int(m.group(1)) if m else 0
        except OSError:
            pass
    return total

class PeakSampler:
    def __init__(self, pid):
        self.pid, self.peak, self.running = pid, 0, True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()
    def loop(self):
        while self.running:
            self.peak = max(self.peak, tree_rss_kib(self.pid))
            time.sleep(0.02)
    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak

def multipart(path, field="file"):
    boundary = uuid.uuid4().hex
    with open(path, "rb") as f:
        data = f.read()
    name = os.path.basename(path)
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n"
            f"Content-Type: application/octet-stream\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", body

def call(method, url, headers=None, body=None, timeout=900):
    req = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()

def wait_for_port(log_path, pattern, timeout=120):
    end = time.time() + timeout
    while time.time() < end:
        with open(log_path, errors="replace") as f:
            m = re.search(pattern, f.read())
        if m:
            return m
        time.sleep(0.2)
    raise SystemExit(f"server did not start; see {log_path}")

def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def preflight(ipas, work):
    binary = os.environ.get("PREFLIGHT_BIN", ".build-pg/debug/preflight")
    store, uploads, log = f"{work}/pf.sqlite", f"{work}/pf-uploads", f"{work}/pf.log"
    secret = subprocess.run([binary, "token", "create", "--store", store, "--role", "admin", "bench"],
                            capture_output=True, text=True, check=True).stdout
    token = re.search(r"pfs_[A-Za-z0-9_-]+", secret).group(0)
    server = subprocess.Popen([binary, "serve", "--store", store, "--uploads", uploads, "--listen", "127.0.0.1:0",
                               "--jobs", "1", "--insecure-cookies", "--requests-per-minute", "1000000"], stdout=subprocess.DEVNULL, stderr=open(log, "w"))
    port = wait_for_port(log, r"listening on http://127\.0\.0\.1:(\d+)").group(1)
    base, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Bearer {token}"}
    results = {}
    try:
        for ipa in ipas:
            sampler = PeakSampler(server.pid)
            start = time.monotonic()
            ctype, body = multipart(ipa)
            status, out = call("POST", f"{base}/api/v1/uploads", {**auth, "Content-Type": ctype}, body)
            doc = json.loads(out) if status == 202 else {}
            while doc.get("status") not in ("done", "failed"):
                if status != 202 and not doc:
                    doc = {"status": f"HTTP {status}", "error": out.decode(errors="replace")[:200]}
                    break
                time.sleep(0.02)
                status, out = call("GET", f"{base}/api/v1/uploads/{doc['id']}", auth)
                if status == 200:
                    doc = json.loads(out)
            seconds = time.monotonic() - start
            peak = sampler.stop()
            verdict = doc.get("error", "")[:80] if doc.get("status") != "done" else ""
            if doc.get("status") == "done":
                _, report = call("GET", f"{base}/api/v1/uploads/{doc['id']}/report", auth)
                findings = json.loads(report).get("findings", [])
                e = sum(1 for f in findings if f.get("severity") == "error")
                w = sum(1 for f in findings if f.get("severity") == "warning")
                verdict = f"{e} errors, {w} warnings"
            results[ipa] = (seconds, peak, f"{doc.get('status')}: {verdict}")
    finally:
        server.terminate()
        server.wait()
    return results

def mobsf(ipas, work, launcher):
    home, log, port, key = f"{work}/mobsf-home", f"{work}/mobsf.log", free_port(), uuid.uuid4().hex
    os.makedirs(home)
    env = {**os.environ, "HOME": home, "MOBSF_API_KEY": key}
    # First run creates its database (Django migrations), then serves with gunicorn.
    server = subprocess.Popen([launcher, f"127.0.0.1:{port}"], env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    base, auth = f"http://127.0.0.1:{port}", {"Authorization": key}
    end = time.time() + 600
    while time.time() < end:
        try:
            if call("GET", f"{base}/api/v1/scans", auth, timeout=5)[0] == 200:
                break
        except Exception:
            pass
        time.sleep(1)
    else:
        raise SystemExit(f"MobSF did not start; see {log}")
    results = {}
    try:
        for ipa in ipas:
            sampler = PeakSampler(server.pid)
            start = time.monotonic()
            ctype, body = multipart(ipa)
            status, out = call("POST", f"{base}/api/v1/upload", {**auth, "Content-Type": ctype}, body)
            verdict = f"upload HTTP {status}: {out.decode(errors='replace')[:80]}"
            if status == 200:
                h = json.loads(out)["hash"]
                status, out = call("POST", f"{base}/api/v1/scan", {**auth, "Content-Type": "application/x-www-form-urlencoded"},
                                   f"hash={h}".encode())
                if status == 200:
                    _, sc = call("POST", f"{base}/api/v1/scorecard", {**auth, "Content-Type": "application/x-www-form-urlencoded"},
                                 f"hash={h}".encode())
                    card = json.loads(sc) if sc.startswith(b"{") else {}
                    verdict = f"score {card.get('security_score', '?')}/100, {len(card.get('high', []))} high"
                else:
                    verdict = f"scan HTTP {status}: {out.decode(errors='replace')[:80]}"
            seconds = time.monotonic() - start
            results[ipa] = (seconds, sampler.stop(), verdict)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    return results

def main():
    folder = sys.argv[1]
    ipas = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".ipa"))
    work = tempfile.mkdtemp(prefix="server-compare.")
    try:
        pf = preflight(ipas, work)
        mb = mobsf(ipas, work, os.environ["MOBSF"]) if os.environ.get("MOBSF") else {}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"machine: {os.cpu_count()} cores; Preflight {os.environ.get('PREFLIGHT_BIN', '.build-pg/debug/preflight')}")
    print("| file | size | Preflight: upload → scanned | peak RSS | verdict | MobSF: upload + scan | peak RSS | verdict |")
    print("|---|---:|---:|---:|---|---:|---:|---|")
    for ipa in ipas:
        s, p, v = pf[ipa]
        ms, mp, mv = mb.get(ipa, (float("nan"), 0, "not run"))
        size = os.path.getsize(ipa)
        print(f"| {os.path.basename(ipa)} | {size / 1e6:.2f} MB | {s:.2f} s | {p / 1024:.0f} MB | {v} | {ms:.2f} s | {mp / 1024:.0f} MB | {mv} |")
    total = lambda r, i: sum(v[i] for v in r.values())
    if mb:
        print(f"\ntotal time: Preflight {total(pf, 0):.1f} s, MobSF {total(mb, 0):.1f} s; "
              f"largest peak: Preflight {max(v[1] for v in pf.values()) / 1024:.0f} MB, MobSF {max(v[1] for v in mb.values()) / 1024:.0f} MB")

if __name__ == "__main__":
    main()
