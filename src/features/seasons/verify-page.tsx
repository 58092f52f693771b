import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { Button } from '#src/components/ui/button.tsx';
import { TextAreaField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { useFormat } from '#src/lib/format.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { registrationsApi, type AdmitVerdict } from './api/seasons-api.ts';
import { failureText } from './lib/call-failure.ts';

interface Detector {
  detect(source: CanvasImageSource): Promise<Array<{ rawValue: string }>>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

/**
 * Reads QR codes from the camera: the browser's BarcodeDetector where it has one, else jsQR on
 * the video's frames (loaded only then). Resolves the first code seen; `stop` ends the camera.
 */
async function startScanner(video: HTMLVideoElement, onCode: (text: string) => void): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
  video.srcObject = stream;
  await video.play();
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  const native = Native ? new Native({ formats: ['qr_code'] }) : null;
  const jsQR = native ? null : (await import('jsqr')).default;
  const canvas = document.createElement('canvas');
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    if (video.readyState >= 2) {
      let text: string | null = null;
      if (native) text = (await native.detect(video).catch(() => []))[0]?.rawValue ?? null;
      else if (jsQR) {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        const context = canvas.getContext('2d', { willReadFrequently: true });
        context?.drawImage(video, 0, 0);
        const frame = context?.getImageData(0, 0, canvas.width, canvas.height);
        text = frame ? (jsQR(frame.data, frame.width, frame.height)?.data ?? null) : null;
      }
      if (text) {
        onCode(text);
        return;
      }
    }
    setTimeout(() => void tick(), 250);
  };
  void tick();
  return () => {
    stopped = true;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
}

/** An invigilator checks an admit card: scan its QR code or type the code printed beside it; the server says who it is, or forged / revoked. */
function VerifyPage() {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const [token, setToken] = useState('');
  const [verdict, setVerdict] = useState<AdmitVerdict | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [scanning, setScanning] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const stop = useRef<(() => void) | null>(null);
  const cameraAvailable = typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);

  const check = async (text: string) => {
    if (!text.trim()) return;
    setBusy(true);
    setFailure(null);
    setVerdict(null);
    try {
      setVerdict(await registrationsApi.verify(text));
    } catch (error) {
      setFailure(await failureText(error, t('verify.failed')));
    } finally {
      setBusy(false);
    }
  };
  const stopScan = () => {
    stop.current?.();
    stop.current = null;
    setScanning(false);
  };
  useEffect(() => () => stop.current?.(), []);

  return (
    <section aria-labelledby="verify-title" className={css({ display: 'grid', gap: '4' })}>
      <PageHeader id="verify-title" title={t('verify.title')} description={t('verify.intro')} />
      <div className={`${card} ${css({ p: '4', display: 'grid', gap: '3' })}`}>
        {cameraAvailable ? (
          <div className={css({ display: 'grid', gap: '2', justifyItems: 'start' })}>
            <video
              ref={video}
              muted
              playsInline
              aria-label={t('verify.camera')}
              className={css({ maxWidth: 'sm', width: '100%', borderRadius: 'md', bg: 'black', display: scanning ? 'block' : 'none' })}
            />
            <Button
              variant="outline"
              data-testid="verify-scan"
              onClick={() => {
                if (scanning) return stopScan();
                if (!video.current) return;
                setScanning(true);
                setFailure(null);
                startScanner(video.current, (text) => {
                  stopScan();
                  setToken(text);
                  void check(text);
                }).then(
                  (stopper) => (stop.current = stopper),
                  () => {
                    setScanning(false);
                    setFailure(t('verify.noCamera'));
                  },
                );
              }}
            >
              {scanning ? t('verify.stopScan') : t('verify.scan')}
            </Button>
          </div>
        ) : null}
        <form
          className={css({ display: 'grid', gap: '2' })}
          onSubmit={(event) => {
            event.preventDefault();
            void check(token);
          }}
        >
          <TextAreaField
            label={t('verify.token')}
            hint={t('verify.tokenHint')}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            rows={3}
            maxLength={2000}
            spellCheck={false}
            className={css({ fontFamily: 'mono' })}
            data-testid="verify-token"
          />
          <div>
            <Button type="submit" loading={busy} disabled={!token.trim()} data-testid="verify-check">
              {t('verify.check')}
            </Button>
          </div>
        </form>
        {failure ? (
          <p role="alert" className={css({ color: 'error.dark' })}>
            {failure}
          </p>
        ) : null}
      </div>
      {verdict ? (
        <div
          role="status"
          data-testid="verify-verdict"
          data-verdict={verdict.verdict}
          className={css({
            p: '4',
            borderRadius: 'lg',
            borderWidth: '2px',
            borderColor: verdict.verdict === 'valid' ? 'success.main' : 'error.main',
            bg: verdict.verdict === 'valid' ? 'success.lighter' : 'error.lighter',
            color: 'fg.default',
            display: 'grid',
            gap: '2',
          })}
        >
          <p className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{t(`verify.verdict.${verdict.verdict}`)}</p>
          {verdict.candidate ? (
            <dl className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '10rem 1fr' }, gap: '1' })}>
              <dt className={css({ fontWeight: 'semibold' })}>{t('queue.candidate')}</dt>
              <dd data-testid="verify-name">{verdict.candidate.name}</dd>
              <dt className={css({ fontWeight: 'semibold' })}>{t('mine.roll')}</dt>
              <dd className={css({ fontFamily: 'mono' })} data-testid="verify-roll">
                {verdict.candidate.rollNumber}
              </dd>
              <dt className={css({ fontWeight: 'semibold' })}>{t('queue.exam')}</dt>
              <dd>{verdict.candidate.examName}</dd>
              <dt className={css({ fontWeight: 'semibold' })}>{t('queue.center')}</dt>
              <dd>{t('verify.seat', { center: verdict.candidate.center, seat: verdict.candidate.seatNumber })}</dd>
              <dt className={css({ fontWeight: 'semibold' })}>{t('register.papers')}</dt>
              <dd>
                {verdict.candidate.papers
                  .map((p) => t('mine.paper', { code: p.paperCode, date: format.date(`${p.sitsOn}T12:00:00`), time: p.startsAt }))
                  .join('; ')}
              </dd>
            </dl>
          ) : (
            <p>{t(`verify.explain.${verdict.verdict}`)}</p>
          )}
        </div>
      ) : null}
    </section>
  );
}

export default function GatedVerifyPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <VerifyPage />
    </PermissionGate>
  );
}
