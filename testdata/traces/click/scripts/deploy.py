import click


@click.command()
@click.option("--env", "-e", default="staging")
@click.option("--dry-run", is_flag=True, help="Print what would happen.")
def deploy(env, dryrun):
    if dryrun:
        click.echo(f"would deploy to {env}")
    else:
        click.echo(f"deploying to {env}")


if __name__ == "__main__":
    deploy()
