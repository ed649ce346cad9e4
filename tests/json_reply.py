"""The answer of the tests' fake HTTP servers (a BaseHTTPRequestHandler's), as JSON."""
import json


def send_json(handler, status: int, obj) -> None:
    """`obj` as JSON (a str sent as it is), with its status and length."""
    data = obj.encode() if isinstance(obj, str) else json.dumps(obj).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
