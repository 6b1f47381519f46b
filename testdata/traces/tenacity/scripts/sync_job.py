from tenacity import retry


@retry(stop=3, wait=1)
def sync_inventory():
    raise RuntimeError("inventory API timed out")


sync_inventory()
