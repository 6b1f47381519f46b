import click


@click.group()
def cli():
    pass


def cleanup():
    """Remove temporary files."""
    click.echo("cleaning")


cli.add_command(cleanup)

if __name__ == "__main__":
    cli()
