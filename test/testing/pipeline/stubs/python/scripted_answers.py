"""Scripts a stub sequence and a streamed answer on a running oz-mock from Python's standard library only (urllib).

Reads OZ_BASE_URL, OZ_MOCK_ADMIN_TOKEN and OZ_API_KEY from the environment; exits non-zero on the first surprise.
"""
import json
import os
import urllib.error
import urllib.request

BASE = os.environ["OZ_BASE_URL"]
ADMIN = os.environ["OZ_MOCK_ADMIN_TOKEN"]
KEY = os.environ["OZ_API_KEY"]


def request(method, path, body=None, token=KEY):
    """One request; answers (status, parsed body). HTTP errors are answers too."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method)
    req.add_header("Authorization", "Bearer " + token)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, json.loads(res.read().decode())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read().decode())


def check(condition, what):
    if not condition:
        raise SystemExit("FAILED: " + what)
    print("ok -", what)


def execute():
    return request("POST", "/v1/tools/echo/execute", {"text": "real"})


def answer(content):
    return {"status": 200, "body": {"ok": True, "content": content, "execution_id": "exe_PyPyPyPyPyPyPyPyPyPyPyPyPyPyPyPy", "request_id": "req_py"}}


failure = {"status": 500, "body": {"error": {"code": "internal_error", "message": "Try again."}}}
status, stub = request("POST", "/_oz/stubs", {"operationId": "executeTool", "answers": [failure, answer("scripted")], "then": "fallthrough"}, token=ADMIN)
check(status == 201 and stub["position"] == 0 and stub["remaining"] == 2, "adds a sequence of two answers")
status, body = execute()
check(status == 500 and body["error"]["code"] == "internal_error", "the first request gets the first answer")
status, listed = request("GET", "/_oz/stubs", token=ADMIN)
check(listed["data"][0]["position"] == 1 and listed["data"][0]["hits"] == 1, "the listing shows the position and the hits")
status, body = execute()
check(status == 200 and body["content"] == "scripted", "the second request gets the second answer")
status, body = execute()
check(status == 200 and body["content"] == "real", "then the server answers as usual")
status, listed = request("GET", "/_oz/stubs", token=ADMIN)
check(listed["data"] == [], "the sequence is withdrawn after it fell through")
status, err = request("POST", "/_oz/stubs", {"operationId": "executeTool", "answers": []}, token=ADMIN)
check(status == 422 and err["error"]["code"] == "invalid_params", "an empty sequence is 422")

# A streamed answer: an agent's events, read as they come on the socket.
events = [{"event": "token", "data": {"delta": "Hel"}}, {"event": "token", "data": {"delta": "lo"}, "delayMs": 5}, {"event": "error", "data": {"error": {"code": "approval_required", "message": "Needs a human."}}}]
status, stub = request("POST", "/_oz/stubs", {"operationId": "executeAgent", "answer": {"status": 200, "events": events}}, token=ADMIN)
check(status == 201, "adds a streamed answer")
req = urllib.request.Request(BASE + "/v1/execute", data=json.dumps({"agent": "writer", "user_request": "hi", "stream": True}).encode(), method="POST")
req.add_header("Authorization", "Bearer " + KEY)
req.add_header("Content-Type", "application/json")
with urllib.request.urlopen(req, timeout=10) as res:
    check(res.headers["Content-Type"].startswith("text/event-stream"), "the answer is an event stream")
    received = []
    for line in res:
        line = line.decode().rstrip("\n")
        if line.startswith("event: "):
            received.append(line[len("event: "):])
        elif line.startswith("data: "):
            received[-1] += " " + line[len("data: "):]
check(received == ['token {"delta":"Hel"}', 'token {"delta":"lo"}', 'error {"error":{"code":"approval_required","message":"Needs a human."}}'], "the events come in order, as scripted")
status, err = request("POST", "/_oz/stubs", {"operationId": "executeAgent", "answer": {"status": 200, "events": [{"event": "tokn", "data": {}}]}}, token=ADMIN)
check(status == 422 and "answer.events[0]" in err["error"]["message"], "an event openapi.json does not allow is 422 naming it")
print("python: all checks passed")
