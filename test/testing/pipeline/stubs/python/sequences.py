"""Scripts a stub sequence on a running oz-mock from Python's standard library only (urllib).

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
print("python: all checks passed")
