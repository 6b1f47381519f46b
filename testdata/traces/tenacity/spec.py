S = "/tmp/traces-work/tenacity/scripts/"
V = "/tmp/traces-work/venv-tenacity/lib/python3.11/site-packages/"
P = "/root/.pyenv/versions/3.11.7/lib/python3.11/"

def rw(script_dir, venv_sp, stdlib):
    return [(S, script_dir), (V, venv_sp), (P, stdlib)]

HEADER = "# tenacity traceback set: real traces from tenacity 8.2.2 scripts, paths rewritten; labelled after reading the pages.\n"
ITEMS = [
    dict(file="health_check.py", rw=rw("/home/gabriel/deploy/scripts/", "/home/gabriel/deploy/.venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         pre="our readiness probe script dies with this instead of the real error, what is RetryError?",
         expect=["error-handling#retry-error", "error-handling#reraise"]),
    dict(file="db_connect.py", rw=rw("/home/ines/ledger/", "/home/ines/.venvs/ledger/lib/python3.11/site-packages/", "/home/ines/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=["error-handling#reraise", "retry-loop#giving-up"]),
    dict(file="sync_job.py", rw=rw("/home/pkumar/inventory-sync/jobs/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=["overview#strategy-protocol", "stopping#stop-after-attempt", "waiting#wait-fixed"]),
    dict(file="poll_status.py", rw=rw("/home/claire/etl/", "/home/claire/etl/venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         expect=["retry-conditions#result-predicates", "error-handling#retry-error-callback"]),
    dict(file="loop_retry.py", rw=rw("/home/yusuf/scraper/", "/home/yusuf/.cache/pypoetry/virtualenvs/scraper-3mKq1ZtR-py3.11/lib/python3.11/site-packages/", "/home/yusuf/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=["retrying-code-blocks#async-for", "async-and-tornado#async-iteration", "common-questions#upgrading"]),
    dict(file="log_retries.py", rw=rw("/home/erik/billing/", "/home/erik/billing/.venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         expect=["logging-and-hooks#before-sleep-log"]),
    dict(file="async_client.py", rw=rw("/home/mei/chat-gateway/src/", "/home/mei/chat-gateway/.venv/lib/python3.11/site-packages/", "/home/mei/.pyenv/versions/3.11.7/lib/python3.11/"),
         pre="getting this in CI when the redis sidecar isn't up yet:",
         expect=["retrying-code-blocks#async-for", "error-handling#retry-error"]),
    dict(file="wait_sum.py", rw=rw("/home/tlopez/auth-client/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=["waiting#combining-waits", "overview#strategy-protocol"]),
    dict(file="parse_retry.py", rw=rw("/home/oliver/svc-config/", "/home/oliver/svc-config/.venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         pre="why isn't tenacity retrying this? I set stop_after_attempt(5) but it fails on the first call",
         expect=["retry-loop#deciding-to-retry", "retry-conditions#exception-type"]),
    dict(file="stats.py", rw=rw("/home/hana/netmon/", "/home/hana/netmon/env/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         expect=["statistics-and-runtime#statistics-attribute"]),
    # unanswerable
    dict(file="uploader.py", rw=rw("/home/rafael/backup-agent/", "/home/rafael/backup-agent/.venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         pre="retry_with on a method gives me this:",
         expect=[]),
    dict(file="batch_pool.py", rw=rw("/home/svetlana/batcher/", "/home/svetlana/.venvs/batcher/lib/python3.11/site-packages/", "/home/svetlana/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=[]),
    dict(file="env_attempts.py", rw=rw("/home/kwame/events/publisher/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=[]),
    dict(file="fanout.py", rw=rw("/home/lucas/probe/", "/home/lucas/probe/.venv/lib/python3.11/site-packages/", "/usr/lib/python3.11/"),
         expect=[]),
]
