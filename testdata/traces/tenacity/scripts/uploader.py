from tenacity import retry, stop_after_attempt, wait_fixed


class S3Uploader:
    def __init__(self, bucket):
        self.bucket = bucket

    @retry(stop=stop_after_attempt(5), wait=wait_fixed(1))
    def put(self, key, data):
        raise ConnectionResetError(f"reset while uploading {key} to {self.bucket}")


up = S3Uploader("backups")
fast_put = up.put.retry_with(stop=stop_after_attempt(2), wait=wait_fixed(0))
fast_put("db.dump", b"...")
