import os

import click


@click.command()
@click.option("--token", default=lambda: os.environ["API_TOKEN"], show_default="$API_TOKEN")
def whoami(token):
    click.echo(f"token ends with {token[-4:]}")


if __name__ == "__main__":
    whoami()
