"""A Python program's calls to the oz-mock executable over HTTP, with the standard library only (urllib, no pip).

Reads OZ_BASE_URL, OZ_API_KEY and OZ_MOCK_ADMIN_TOKEN from the environment; lists the tools, executes echo, reads
the journal through the control plane with the admin token (and once without it), and prints what it saw as one
JSON object for the test to judge.
"""
import json
import os
import sys
import urllib.error
import urllib.request

# #region calls
BASE = os.environ["OZ_BASE_URL"]


def call(method, path, token, body=None):
    """One request; answers (status, parsed JSON body). HTTP errors are answers too."""
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


key = os.environ["OZ_API_KEY"]
admin = os.environ["OZ_MOCK_ADMIN_TOKEN"]
tools_status, tools = call("GET", "/v1/tools", key)
run_status, run = call("POST", "/v1/tools/echo/execute", key, {"text": "from python"})
journal_status, journal = call("GET", "/_oz/journal", admin)
refused_status, refused = call("GET", "/_oz/journal", key)
# #endregion
json.dump(
    {
        "python": sys.version.split()[0],
        "tools": [tools_status, [tool["name"] for tool in tools["data"]]],
        "execute": [run_status, run.get("content")],
        "journal": [journal_status, [[e["method"], e["path"], e["operationId"], e["status"]] for e in journal["data"]]],
        "journalWithApiKey": [refused_status, refused["error"]["code"]],
    },
    sys.stdout,
)
