import click


@click.command()
@click.option("--retries", type=click.INT(), default=3)
def fetch(retries):
    click.echo(f"retries={retries}")


if __name__ == "__main__":
    fetch()
