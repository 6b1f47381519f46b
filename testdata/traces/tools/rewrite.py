"""rewrite.py <corpus> : raw/<s>.txt -> out/<s>.txt with path prefixes replaced.
Profile per script is chosen deterministically (sorted index + corpus offset) and recorded in <corpus>/paths.json."""
import json, os, sys
BASE = "/tmp/traces-work"
STDLIB = "/root/.pyenv/versions/3.11.7/lib/python3.11/"
PROFILES = [
    # (script dir, site-packages, stdlib)
    ("/home/maria/code/{p}/", "/home/maria/.venvs/{p}/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
    ("/home/dev/{p}/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
    ("/home/tkowalski/work/{p}/", "/home/tkowalski/work/{p}/.venv/lib/python3.11/site-packages/", "/home/tkowalski/.pyenv/versions/3.11.7/lib/python3.11/"),
    ("/home/sam/projects/{p}/src/", "/home/sam/projects/{p}/venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
    ("/home/ubuntu/{p}/", "/home/ubuntu/{p}/env/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
    ("/home/jlee/src/{p}/", "/home/jlee/.cache/pypoetry/virtualenvs/{p}-Xk3dP9aQ-py3.11/lib/python3.11/site-packages/", "/home/jlee/.pyenv/versions/3.11.7/lib/python3.11/"),
    ("/home/app/{p}/", "/home/app/.local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
    ("/home/nora/dev/{p}/", "/home/nora/dev/{p}/.venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
]
def main(corpus, projects):
    sd = f"{BASE}/{corpus}/scripts/"
    vd = f"{BASE}/venv-{corpus}/lib/python3.11/site-packages/"
    names = sorted(f[:-4] for f in os.listdir(f"{BASE}/{corpus}/raw") if f.endswith(".txt"))
    off = sum(map(ord, corpus))
    os.makedirs(f"{BASE}/{corpus}/out", exist_ok=True)
    rec = {}
    for i, n in enumerate(names):
        p = projects[(i * 7 + off) % len(projects)]
        s, v, l = [x.format(p=p) for x in PROFILES[(i + off) % len(PROFILES)]]
        t = open(f"{BASE}/{corpus}/raw/{n}.txt", encoding="utf-8").read()
        t = t.replace(sd, s).replace(vd, v).replace(STDLIB, l)
        assert "/tmp/traces-work" not in t and "/root/" not in t, n
        open(f"{BASE}/{corpus}/out/{n}.txt", "w", encoding="utf-8").write(t)
        rec[n] = {"script_dir": s, "site_packages": v, "stdlib": l}
    json.dump(rec, open(f"{BASE}/{corpus}/paths.json", "w"), indent=1)
if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","))
