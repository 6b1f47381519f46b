S = "/tmp/traces-work/structlog/scripts/"
V = "/tmp/traces-work/venv-structlog/lib/python3.11/site-packages/"
P = "/root/.pyenv/versions/3.11.7/lib/python3.11/"

def rw(script_dir, venv_sp, stdlib="/usr/lib/python3.11/"):
    return [(S, script_dir), (V, venv_sp), (P, stdlib)]

HEADER = "# structlog traceback set: real traces from structlog 22.1.0 scripts, paths rewritten; labelled after reading the pages.\n"
ITEMS = [
    dict(file="orders.py", rw=rw("/home/nkowalczyk/shop/orders/", "/home/nkowalczyk/shop/.venv/lib/python3.11/site-packages/"),
         expect=["overview#life-of-a-log-call", "filtering-bound-logger#generated-methods"]),
    dict(file="redact.py", rw=rw("/home/amir/authsvc/", "/home/amir/.venvs/authsvc/lib/python3.11/site-packages/"),
         pre="added a processor to strip passwords and now every log call crashes:",
         expect=["processors#processor-signature", "processors#chain-example", "getting-started#first-processor"]),
    dict(file="no_renderer.py", rw=rw("/home/tess/gateway/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         expect=["processors#final-processor", "overview#life-of-a-log-call", "bound-loggers#process-event"]),
    dict(file="level_filter.py", rw=rw("/home/joao/cachewarm/", "/home/joao/cachewarm/venv/lib/python3.11/site-packages/", "/home/joao/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=["stdlib-processors#filter-by-level"]),
    dict(file="trace_level.py", rw=rw("/home/wei/httpparse/", "/home/wei/httpparse/.venv/lib/python3.11/site-packages/"),
         pre="structlog has no trace level?",
         expect=["filtering-bound-logger#generated-methods", "filtering-bound-logger#level-constants"]),
    dict(file="setup_logging.py", rw=rw("/home/mlindqvist/inventory/app/", "/home/mlindqvist/.cache/pypoetry/virtualenvs/inventory-pT3xQ9aZ-py3.11/lib/python3.11/site-packages/"),
         expect=["filtering-bound-logger#make-filtering-bound-logger"]),
    dict(file="renderer_order.py", rw=rw("/home/zoe/diskwatch/", "/home/zoe/diskwatch/.venv/lib/python3.11/site-packages/"),
         expect=["processors#final-processor", "processors#chain-example"]),
    dict(file="bytes_out.py", rw=rw("/home/arjun/uploader/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         pre="switched to BytesLoggerFactory for speed and got:",
         expect=["output-loggers#bytes-logger", "renderers#json-renderer"]),
    dict(file="formatter.py", rw=rw("/home/helga/etl/logging_setup/", "/home/helga/etl/.venv/lib/python3.11/site-packages/"),
         expect=["processor-formatter#two-sides", "standard-library#logger-factory"]),
    dict(file="async_handler.py", rw=rw("/home/kofi/api/", "/home/kofi/api/.venv/lib/python3.11/site-packages/", "/home/kofi/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=["standard-library#async-bound-logger"]),
    # unanswerable
    dict(file="plugin_loader.py", rw=rw("/home/victor/pluginhost/", "/home/victor/pluginhost/.venv/lib/python3.11/site-packages/"),
         expect=[]),
    dict(file="log_config.py", rw=rw("/home/irene/webapp/config/", "/usr/local/lib/python3.11/site-packages/", "/usr/local/lib/python3.11/"),
         pre="dictConfig with structlog ProcessorFormatter prints this on every log line:",
         expect=[]),
    dict(file="job_log.py", rw=rw("/home/paulo/batch/", "/home/paulo/batch/env/lib/python3.11/site-packages/"),
         expect=[]),
    dict(file="middleware.py", rw=rw("/home/ling/asgi-app/", "/home/ling/asgi-app/.venv/lib/python3.11/site-packages/", "/home/ling/.pyenv/versions/3.11.7/lib/python3.11/"),
         expect=[]),
]
