import requests

SERVICES = {
    "auth": "http://127.0.0.1:8081/healthz",
    "billing": "http://127.0.0.1:8082/healthz",
}


def check_all():
    for name, url in SERVICES.items():
        r = requests.get(url, timeout=5)
        print(name, r.status_code)


check_all()
