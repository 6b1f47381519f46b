from tenacity import retry, retry_if_result, stop_after_attempt, wait_fixed

calls = {"n": 0}


def get_job_status(job_id):
    calls["n"] += 1
    return "PENDING"


@retry(retry=retry_if_result(lambda s: s != "DONE"), stop=stop_after_attempt(5), wait=wait_fixed(0.05))
def wait_until_done(job_id):
    return get_job_status(job_id)


print(wait_until_done("job-42"))
