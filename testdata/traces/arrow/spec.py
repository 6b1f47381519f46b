S = "/tmp/traces-work/arrow/scripts/"
V = "/tmp/traces-work/venv-arrow/lib/python3.11/site-packages/"
P = "/root/.pyenv/versions/3.11.7/lib/python3.11/"

def rw(script_dir, venv_sp, stdlib="/usr/lib/python3.11/"):
    return [(S, script_dir), (V, venv_sp), (P, stdlib)]

HEADER = "# arrow traceback set: real traces from arrow 1.2.3 scripts, paths rewritten; labelled after reading the pages.\n"
ITEMS = [
    dict(file="import_csv.py", rw=rw("/home/jmartin/crm-import/", "/home/jmartin/crm-import/.venv/lib/python3.11/site-packages/"),
         pre="importing a CSV export from excel:",
         expect=["parsing-iso#iso-failures", "arrow-get#strings-and-formats", "parsing-with-formats#format-basics"]),
    dict(file="epoch.py", rw=rw("/home/akira/webhooks/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=["common-questions#numeric-string", "arrow-get#get-errors", "release-history#release-0-15"]),
    dict(file="reschedule.py", rw=rw("/home/fatima/calendar-sync/", "/home/fatima/.venvs/calendar-sync/lib/python3.11/site-packages/"),
         expect=["replace-and-shift#replace", "replace-and-shift#shift"]),
    dict(file="tz_convert.py", rw=rw("/home/pete/tools/worldclock/", "/home/pete/tools/worldclock/venv/lib/python3.11/site-packages/", "/home/pete/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=["timezones#tzinfo-parser", "timezones#convert-with-to"]),
    dict(file="dehumanize.py", rw=rw("/home/leonie/reminders/", "/home/leonie/reminders/.venv/lib/python3.11/site-packages/"),
         pre="arrow dehumanize can't read this?",
         expect=["dehumanize#dehumanize-errors", "dehumanize#phrase-matching"]),
    dict(file="report_span.py", rw=rw("/home/dmitri/reports/", "/home/dmitri/.cache/pypoetry/virtualenvs/reports-Qw8nB2Lm-py3.11/lib/python3.11/site-packages/"),
         expect=["spans-and-ranges#interval", "spans-and-ranges#span"]),
    dict(file="ts_method.py", rw=rw("/home/sam/auth-service/tokens/", "/home/sam/auth-service/.venv/lib/python3.11/site-packages/"),
         pre="this worked before we bumped arrow, now:",
         expect=["comparison-and-properties#timestamps", "release-history#release-0-16-0-17"]),
    dict(file="local_now.py", rw=rw("/home/ulrike/kiosk/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=["creating-arrows#now-and-utcnow", "timezones#tz-expressions"]),
    dict(file="french.py", rw=rw("/home/camille/scraper-presse/", "/home/camille/scraper-presse/env/lib/python3.11/site-packages/"),
         expect=["localization#localized-parsing", "localization#where-locales-apply"]),
    dict(file="hour24.py", rw=rw("/home/rob/gtfs-loader/", "/home/rob/gtfs-loader/.venv/lib/python3.11/site-packages/", "/home/rob/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=["parsing-iso#time-forms", "parser-internals#building-the-datetime", "parsing-with-formats#parser-errors"]),
    # unanswerable
    dict(file="shift_float.py", rw=rw("/home/nadia/billing/", "/home/nadia/billing/.venv/lib/python3.11/site-packages/"),
         pre="trying to add a month and a half with arrow:",
         expect=[]),
    dict(file="local_tz.py", rw=rw("/home/bjorn/shifts/", "/home/bjorn/.venvs/shifts/lib/python3.11/site-packages/"),
         expect=[]),
    dict(file="weekly.py", rw=rw("/home/grace/timesheets/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=[]),
    dict(file="daily_report.py", rw=rw("/home/ivan/ops-reports/", "/home/ivan/ops-reports/.venv/lib/python3.11/site-packages/"),
         expect=[]),
]
