import { PageOutlet } from '../components/PageOutlet.tsx';
import { PlainFrame } from './PlainFrame.tsx';

export function PlainLayout() {
  return (
    <PlainFrame>
      <PageOutlet />
    </PlainFrame>
  );
}
