import multiprocessing as mp

import httpx

client = httpx.Client(base_url="http://localhost:8000", timeout=10)


def fetch(path, c):
    return c.get(path).status_code


if __name__ == "__main__":
    with mp.Pool(2) as pool:
        print(pool.starmap(fetch, [("/json/a", client), ("/json/b", client)]))
