import json

from tenacity import retry, retry_if_exception_type, stop_after_attempt


@retry(retry=retry_if_exception_type(ConnectionError), stop=stop_after_attempt(5))
def load_config(raw):
    return json.loads(raw)["service"]


print(load_config('{"services": {"name": "api"}}'))
