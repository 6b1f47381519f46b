from concurrent.futures import ProcessPoolExecutor

from tenacity import retry, stop_after_attempt


@retry(stop=stop_after_attempt(2))
def process(item):
    if item % 2:
        raise ValueError(f"bad item {item}")
    return item * 10


if __name__ == "__main__":
    with ProcessPoolExecutor(max_workers=2) as pool:
        for r in pool.map(process, range(4)):
            print(r)
