import logging

import requests

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("client")


def log_response(response):
    log.info("%s %s -> %s", response.request.method, response.url, response.status_code)


s = requests.Session()
s.hooks["response"].append(log_response)
print(s.get("http://localhost:8000/json/ping", timeout=5).json())
