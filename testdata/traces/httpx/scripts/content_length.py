import httpx

body = "héllo wörld".encode()
headers = {"Content-Type": "text/plain", "Content-Length": str(len("héllo wörld"))}
r = httpx.post("http://localhost:8000/echo", content=body, headers=headers)
print(r.status_code)
