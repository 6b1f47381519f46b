import requests

USER = "deploy"
PASSWORD = "s3cret"

r = requests.get("http://localhost:8000/json/private", auth=f"{USER}:{PASSWORD}", timeout=5)
print(r.json())
