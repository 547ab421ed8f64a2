"""Drives a running oz-mock from Python's standard library only (urllib): the proof that any language can.

Reads OZ_BASE_URL, OZ_MOCK_ADMIN_TOKEN and SHOP_KEY from the environment; exits non-zero on the first surprise.
"""
import http.client
import json
import os
import urllib.error
import urllib.request

BASE = os.environ["OZ_BASE_URL"]
ADMIN = os.environ["OZ_MOCK_ADMIN_TOKEN"]
KEY = os.environ["SHOP_KEY"]


def request(method, path, body=None, token=KEY, content_type="application/json"):
    """One request; answers (status, headers, parsed body or text). HTTP errors are answers too."""
    data = None if body is None else (body if isinstance(body, str) else json.dumps(body)).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            status, headers, raw = res.status, res.headers, res.read().decode()
    except urllib.error.HTTPError as err:
        status, headers, raw = err.code, err.headers, err.read().decode()
    try:
        return status, headers, json.loads(raw)
    except ValueError:
        return status, headers, raw


def control(method, path, body=None):
    return request(method, "/_oz" + path, body, token=ADMIN)


def check(condition, what):
    if not condition:
        raise SystemExit("FAILED: " + what)
    print("ok -", what)


# 1. Declare a tool (YAML, as a fixture file would).
status, _, summary = request("POST", "/_oz/fixtures", "tools:\n  - name: shout\n    required: [text]\n    answer: '{{text}}!'\n", token=ADMIN, content_type="application/yaml")
check(status == 200 and summary["tools"] == 1, "declares a tool from YAML")
status, _, text = request("POST", "/v1/tools/shout/execute?format=text", {"text": "hello"})
check(status == 200 and text == "hello!", "the declared tool answers its template")
status, _, err = control("POST", "/fixtures", {"tools": [{"name": "broken", "answer": 42}]})
check(status == 422 and err["error"]["param"] == "tools[0].answer", "a bad fixture names its field")

# 2. A 429 with Retry-After on one operation.
status, _, fault = control("POST", "/faults", {"operationId": "executeTool", "type": "error", "status": 429, "code": "rate_limited", "retryAfter": 3})
check(status == 201 and fault["id"].startswith("flt_"), "arms a 429 fault")
status, headers, body = request("POST", "/v1/tools/shout/execute", {"text": "again"})
check(status == 429 and headers["Retry-After"] == "3" and body["error"]["code"] == "rate_limited", "the call gets 429 with Retry-After: 3")
status, _, _ = control("POST", "/faults", {"operationId": "executeTools", "type": "drop"})
check(status == 422, "a fault with a misspelt operationId is refused")

# 3. A lost answer: the run happens, the connection drops.
control("POST", "/faults", {"operationId": "executeTool", "type": "lose"})
lost = False
try:
    request("POST", "/v1/tools/shout/execute", {"text": "lost"})
except (urllib.error.URLError, ConnectionError, http.client.HTTPException):
    lost = True
check(lost, "the answer is lost (the connection drops)")
status, _, journal = control("GET", "/journal?operationId=executeTool&limit=1")
entry = journal["data"][0]
check(entry["fault"] == "lose" and entry["status"] == 200, "the journal shows the lost answer's status and fault")
status, _, record = request("GET", "/v1/executions/" + entry["executionId"])
check(record["status"] == "succeeded" and record["content"] == "lost!", "the lost call's run succeeded on the server")
check("ozk_Shop" + "\u2026" == entry["headers"]["authorization"].split(" ")[1], "the journal redacts the key")

# 4. Advance the frozen clock to fire the hourly schedule of the fixture file.
status, _, clock = control("GET", "/clock")
check(clock["frozen"] is True, "the clock is frozen")
status, _, runs = request("GET", "/v1/executions?limit=100")
before = len([r for r in runs["data"] if r["target"] == "quote"])
control("POST", "/clock/advance", {"ms": 31 * 60 * 1000})
control("POST", "/idle", {"timeout_ms": 5000})
status, _, runs = request("GET", "/v1/executions?limit=100")
fired = [r for r in runs["data"] if r["target"] == "quote"]
check(len(fired) > before and fired[0]["content"] == "Price of tea: 10 USD", "the hourly schedule fired")

# 5. Reset: the fixture file stays, the run-time additions go.
status, _, _ = control("POST", "/reset")
check(status == 200, "resets")
status, _, _ = request("POST", "/v1/tools/shout/execute", {"text": "gone"})
check(status == 404, "the tool declared at run time is gone")
status, _, text = request("POST", "/v1/tools/quote/execute?format=text", {"product": "tea"})
check(status == 200 and text == "Price of tea: 10 USD", "the fixture file's tool is still there")
status, _, journal = control("GET", "/journal")
check([e["path"] for e in journal["data"]] == ["/v1/tools/shout/execute", "/v1/tools/quote/execute"], "the journal starts again after the reset")
status, _, _ = request("POST", "/_oz/reset", token=KEY)
check(status == 401, "an API key never opens the control plane")
print("python: all checks passed")
