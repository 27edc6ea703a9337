/** Notifications going to the account's own address, with the way to choose another. */
interface IAccountRecipientProps {
  accountEmail: string;
  /** The block's class: `manage-recipient` on the site's settings, `notification-recipient` in the wizard. */
  block: 'manage-recipient' | 'notification-recipient';
  buttonClassName: string;
  onUseOtherAddress: () => void;
}

export function AccountRecipient({ accountEmail, block, buttonClassName, onUseOtherAddress }: IAccountRecipientProps) {
  return (
    <div className={block} data-testid="notification-recipient">
      <p className={`${block}__text`}>
        Notifications go to <strong>{accountEmail}</strong>, your account’s email.
      </p>
      <button type="button" className={buttonClassName} onClick={onUseOtherAddress}>
        Use a different address
      </button>
    </div>
  );
}
