import click


@click.command()
@click.version_option()
def cli():
    click.echo("hi")


if __name__ == "__main__":
    cli()
