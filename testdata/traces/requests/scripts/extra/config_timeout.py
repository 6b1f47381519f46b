import configparser

import requests

cfg = configparser.ConfigParser()
cfg.read_string("""
[http]
timeout = 15
url = http://localhost:8000/json/config
""")

r = requests.get(cfg["http"]["url"], timeout=cfg["http"]["timeout"])
print(r.json())
