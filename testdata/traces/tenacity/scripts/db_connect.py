import socket

from tenacity import retry, stop_after_attempt, wait_fixed, retry_if_exception_type


@retry(
    retry=retry_if_exception_type(ConnectionRefusedError),
    stop=stop_after_attempt(3),
    wait=wait_fixed(0.1),
    reraise=True,
)
def connect(host, port):
    return socket.create_connection((host, port), timeout=1)


conn = connect("localhost", 59999)
