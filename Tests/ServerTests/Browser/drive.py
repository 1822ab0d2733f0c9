#!/usr/bin/env python3
"""Drives headless Chromium through the Preflight server's web interface, as a person would,
over the DevTools protocol on a pipe (--remote-debugging-pipe: no WebSocket library needed).

Usage: drive.py CHROMIUM BASE_URL ADMIN_TOKEN READER_TOKEN V1_IPA V2_IPA SCREENSHOT_DIR
Prints one JSON object: {"checks": [[name, ok, detail], ...]}; exits 1 if any check failed.
"""
import base64, json, os, subprocess, sys, tempfile, time

chromium, base, admin, reader, v1, v2, shots = sys.argv[1:8]
checks = []

def check(name, ok, detail=""):
    checks.append([name, bool(ok), str(detail)[:500]])

profile = tempfile.mkdtemp(prefix="preflight-browser-")
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
hi_r, hi_w = os.dup(to_chrome_r), os.dup(from_chrome_w)

def child_fds():
    os.dup2(hi_r, 3)
    os.dup2(hi_w, 4)

proc = subprocess.Popen(
    [chromium, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
     "--disable-extensions", "--disable-background-networking", "--window-size=1200,900", f"--user-data-dir={profile}",
     "about:blank"],
    pass_fds=(3, 4), preexec_fn=child_fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for fd in (to_chrome_r, from_chrome_w, hi_r, hi_w):
    os.close(fd)
out = os.fdopen(to_chrome_w, "wb", buffering=0)
inp = os.fdopen(from_chrome_r, "rb", buffering=0)
buffer = b""
next_id = 0
events = []

def read_message(deadline):
    global buffer
    while b"\0" not in buffer:
        if time.time() > deadline:
            raise TimeoutError("no message from Chromium")
        chunk = inp.read(65536)
        if not chunk:
            raise EOFError("Chromium closed the pipe")
        buffer += chunk
    raw, buffer = buffer.split(b"\0", 1)
    return json.loads(raw)

def send(method, params=None, session=None, timeout=30):
    global next_id
    next_id += 1
    msg = {"id": next_id, "method": method, "params": params or {}}
    if session:
        msg["sessionId"] = session
    out.write(json.dumps(msg).encode() + b"\0")
    deadline = time.time() + timeout
    while True:
        m = read_message(deadline)
        if m.get("id") == next_id:
            if "error" in m:
                raise RuntimeError(f"{method}: {m['error']}")
            return m.get("result", {})
        events.append(m)

def wait_event(name, session, timeout=30):
    deadline = time.time() + timeout
    while True:
        for i, e in enumerate(events):
            if e.get("method") == name and e.get("sessionId") == session:
                del events[i]
                return e
        events.append(read_message(deadline))

target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
s = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
send("Page.enable", session=s)
send("Runtime.enable", session=s)

def js(expr):
    r = send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True}, session=s)
    return r.get("result", {}).get("value")

def load(action):
    events.clear()
    action()
    wait_event("Page.loadEventFired", s)

def goto(path):
    load(lambda: send("Page.navigate", {"url": base + path}, session=s))

def submit(selector):
    load(lambda: js(f"document.querySelector({json.dumps(selector)}).submit()"))

def shot(name):
    data = send("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
    with open(os.path.join(shots, name + ".png"), "wb") as f:
        f.write(base64.b64decode(data))

def text():
    return js("document.body.innerText") or ""

def set_file(selector, path):
    root = send("DOM.getDocument", session=s)["root"]["nodeId"]
    node = send("DOM.querySelector", {"nodeId": root, "selector": selector}, session=s)["nodeId"]
    send("DOM.setFileInputFiles", {"files": [path], "nodeId": node}, session=s)

def wait_for_scan(timeout=90):
    deadline = time.time() + timeout
    while time.time() < deadline:
        t = text()
        if "done" in t or "failed" in t:
            return t
        time.sleep(0.5)
        goto(js("location.pathname"))
    return text()

try:
    goto("/")
    check("unsigned visit lands on sign-in", js("location.pathname") == "/login" and "Sign in" in js("document.title"), js("location.href"))
    shot("1-sign-in")
    js(f"document.querySelector('#token').value = {json.dumps(admin)}")
    submit("form[action='/login']")
    check("signed in", js("location.pathname") == "/" and js("document.title").startswith("Uploads"), js("document.title"))
    check("no script on the page", js("document.scripts.length") == 0)

    for n, path in enumerate([v1, v2], start=1):
        goto("/")
        set_file("#file", path)
        submit("form[action='/uploads']")
        check(f"upload {n} shows its page", js("location.pathname").startswith("/uploads/"), js("location.href"))
        t = wait_for_scan()
        check(f"upload {n} scanned", "done" in t, t[:300])
        if n == 1:
            shot("2-upload")
            load(lambda: js("document.querySelector(\"a[href$='/report']\").click()"))
            check("full report opens", "Preflight" in (js("document.title") or "") and "ats_arbitrary_loads" in text(), js("document.title"))
            shot("3-report")

    goto("/apps")
    shot("4-apps")
    load(lambda: js("document.querySelector(\"a[href^='/diff']\").click()"))
    t = text()
    check("diff of two versions names the new permission", "NSCameraUsageDescription" in t, t[:500])
    shot("5-diff")

    submit("form[action='/logout']")
    check("signed out", js("location.pathname") == "/login", js("location.href"))
    goto("/")
    check("signed-out session is gone", js("location.pathname") == "/login", js("location.href"))

    js(f"document.querySelector('#token').value = {json.dumps(reader)}")
    submit("form[action='/login']")
    check("reader sees no upload form", js("document.querySelector('#file')") is None)
    # A forbidden action through the browser: the reader posts the upload form anyway.
    csrf = js("document.querySelector(\"input[name='csrf']\").value")
    load(lambda: js(f"""(() => {{ const f = document.createElement('form'); f.method = 'post'; f.action = '/uploads';
        f.enctype = 'multipart/form-data'; const c = document.createElement('input'); c.name = 'csrf'; c.value = {json.dumps(csrf)};
        f.appendChild(c); document.body.appendChild(f); f.submit(); }})()"""))
    check("forbidden upload refused", "Not allowed" in (js("document.title") or "") and "uploader role" in text(), text()[:300])
    shot("6-forbidden")
except Exception as e:  # a broken step is a failed check, with what happened
    check("driver", False, repr(e))
finally:
    try:
        send("Browser.close", timeout=5)
    except Exception:
        pass
    proc.kill()
    proc.wait()

print(json.dumps({"checks": checks}, indent=1))
sys.exit(0 if checks and all(c[1] for c in checks) else 1)
