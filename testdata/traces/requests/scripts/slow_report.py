import requests

REPORT_URL = "http://localhost:8000/slow/reports/monthly"


def download_report():
    r = requests.get(REPORT_URL, timeout=3)
    r.raise_for_status()
    with open("monthly.csv", "wb") as fh:
        fh.write(r.content)


if __name__ == "__main__":
    download_report()
