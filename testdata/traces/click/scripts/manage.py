import click


@click.command()
def cli():
    """Project management commands."""


@cli.command()
def runserver():
    click.echo("serving on :8000")


if __name__ == "__main__":
    cli()
