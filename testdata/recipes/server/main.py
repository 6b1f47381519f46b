"""App."""
LIMIT = 3


class Server:
    def __init__(self):
        self.n = 0

    def handle(self, req):
        def inner(x):
            return x + 1
        return inner(req)


def serve():
    return Server()
