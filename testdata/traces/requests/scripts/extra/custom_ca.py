import requests

CA_BUNDLE = "/etc/ssl/certs/corp-root-ca.pem"

r = requests.get("https://localhost:8443/json/status", verify=CA_BUNDLE, timeout=5)
print(r.status_code)
